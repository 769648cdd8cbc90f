/** The providers' API hosts, named in a refusal: a request to one is a model call the test did not script. */
const PROVIDER_HOSTS: Readonly<Record<string, string>> = {
  "api.openai.com": "OpenAI's API",
  "api.anthropic.com": "Anthropic's API",
  "generativelanguage.googleapis.com": "Google's Gemini API",
  "aiplatform.googleapis.com": "Google's Vertex AI API",
  "api.mistral.ai": "Mistral's API",
  "api.groq.com": "Groq's API",
  "api.deepseek.com": "DeepSeek's API",
  "api.x.ai": "xAI's API",
  "openrouter.ai": "OpenRouter's API",
};

/**
 * What to do about a refused request to an LLM API (`host` without its port): script the model, or call the
 * real one and record it. Never "allow the host": that sends the test's model calls to the provider. Undefined
 * for a host that is no provider's.
 */
export function llmApiFix(host: string): string | undefined {
  const bare = host
    .replace(/:\d+$/, "")
    .replace(/^\[|\]$/g, "")
    .toLowerCase();
  const provider = PROVIDER_HOSTS[bare];
  return provider === undefined
    ? undefined
    : `${bare} is ${provider}: script the model with createSession({ llm }) (a mock model answers on the wire), or call the real one with createSession({ upstream: true }) and record it with a cassette.`;
}
