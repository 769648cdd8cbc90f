import { defineConfig } from "vitest/config";
import { tooltrace } from "tooltrace/vitest";

export default defineConfig({
  plugins: [tooltrace()],
  test: {
    // Clients that read their keys from the environment when their module loads (an app's Slack, OpenAI and
    // Resend clients) get placeholders: in a tooltrace run no request reaches a real service.
    env: { OPENAI_API_KEY: "sk-test", SLACK_BOT_TOKEN: "xoxb-test", RESEND_API_KEY: "re_test" },
  },
});
