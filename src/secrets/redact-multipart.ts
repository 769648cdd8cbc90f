import { REDACTED, type RedactionRules, secretField } from "./redact-text.js";

const FIRST_BOUNDARY = /^--([^\r\n]{1,200})\r?\n/;

/**
 * A `multipart/form-data` body with the value of every secret-named part (`password`, `api_key`) redacted,
 * the way a form body's fields are; `undefined` when `text` is not one.
 */
export function redactMultipart(text: string, rules: RedactionRules): string | undefined {
  const first = FIRST_BOUNDARY.exec(text);
  if (first === null || !/content-disposition:\s*form-data/i.test(text)) return undefined;
  const boundary = `--${first[1]}`;
  return text
    .split(boundary)
    .map((part) => {
      const gap = /\r?\n\r?\n/.exec(part);
      if (gap === null) return part;
      const name = /\bname="([^"]*)"/i.exec(part.slice(0, gap.index))?.[1];
      if (name === undefined || !secretField(rules, name, "field")) return part;
      const ending = part.endsWith("\r\n") ? "\r\n" : part.endsWith("\n") ? "\n" : "";
      return `${part.slice(0, gap.index + gap[0].length)}${REDACTED}${ending}`;
    })
    .join(boundary);
}
