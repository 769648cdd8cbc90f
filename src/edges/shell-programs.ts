/** Commands that run the program after them: `env FOO=1 node`, `xargs curl`, `nohup node`, `timeout 5 node`. */
const WRAPPERS = new Set([
  "env",
  "xargs",
  "nohup",
  "exec",
  "time",
  "command",
  "nice",
  "sudo",
  "doas",
  "stdbuf",
  "setsid",
  "timeout",
  "builtin",
]);
/** Shells whose `-c` script is read for its programs in turn. */
const SHELLS = /^(ba|z|da|k|fi)?sh$/;
/** Shell words that are not programs. */
const KEYWORDS = new Set([
  "if",
  "then",
  "else",
  "elif",
  "fi",
  "do",
  "done",
  "while",
  "until",
  "for",
  "in",
  "case",
  "esac",
  "!",
  "{",
  "}",
  "true",
  "false",
  ":",
]);
/** What a program name stands for when the script hides it (a variable, `eval`, a nested quote the reader gives up on). */
export const UNKNOWN_PROGRAM = "(a program the command line does not name)";

/**
 * Every program a shell command line would run, in order, as dash and bash both read it (`&>` is a background
 * `&` to dash): each command of a chain (`;`, `&&`, `||`, `&`, a pipe, a line break), each command substitution (`$(…)`, backticks), the program a wrapper runs (`env`,
 * `xargs`, `timeout 5`…) and the script of a nested `sh -c`. A program the line does not name (`$CMD`,
 * `eval`) is {@link UNKNOWN_PROGRAM}, which only `allowProcesses: true` allows.
 */
export function programsOf(script: string, depth = 0): string[] {
  if (depth > 4) return [UNKNOWN_PROGRAM];
  const programs: string[] = [];
  for (const words of commandsOf(script)) {
    let index = 0;
    while (index < words.length && /^[A-Za-z_][A-Za-z0-9_]*=/.test(words[index] ?? "")) index += 1;
    while (index < words.length) {
      const word = words[index] ?? "";
      const name = word.split("/").pop() ?? word;
      if (KEYWORDS.has(word)) {
        index += 1;
        continue;
      }
      // A redirection (`2>&1`, `>out`, `< in`) and, when written apart, its target.
      if (/^\d*[<>]/.test(word)) {
        index += /^\d*[<>]+&?$/.test(word) ? 2 : 1;
        continue;
      }
      if (/[$`]/.test(word) || name === "eval" || name === "source" || name === ".") {
        programs.push(UNKNOWN_PROGRAM);
        break;
      }
      programs.push(name);
      if (SHELLS.test(name)) {
        const flag = words.findIndex((candidate, at) => at > index && /^-[a-z]*c[a-z]*$/.test(candidate));
        const nested = flag === -1 ? undefined : words[flag + 1];
        if (nested !== undefined) programs.push(...programsOf(nested, depth + 1));
        break;
      }
      if (!WRAPPERS.has(name)) break;
      index += 1;
      // A wrapper's own options and arguments (`timeout 5`, `env -i A=1`, `nice -n 5`) come before the program.
      while (index < words.length && /^(-|[A-Za-z_][A-Za-z0-9_]*=|\d)/.test(words[index] ?? "")) index += 1;
    }
  }
  return programs;
}

/** The commands of a script, each as its words with quotes removed; substitutions are commands of their own. */
function commandsOf(script: string): string[][] {
  const commands: string[][] = [];
  const nested: string[] = [];
  let words: string[] = [];
  let word = "";
  let quote: "'" | '"' | undefined;
  /** The last character read was a `>` or `<` the shell reads as one (not quoted, not escaped). */
  let redirect = false;
  const endWord = () => {
    if (word !== "") words.push(word);
    word = "";
  };
  const endCommand = () => {
    endWord();
    if (words.length > 0) commands.push(words);
    words = [];
  };
  for (let i = 0; i < script.length; i++) {
    const char = script[i] ?? "";
    if (quote === "'") {
      if (char === "'") quote = undefined;
      else word += char;
      redirect = false;
      continue;
    }
    if (char === "\\") {
      word += script[i + 1] ?? "";
      i += 1;
      redirect = false;
      continue;
    }
    if (char === "$" && script[i + 1] === "(") {
      const end = closingParen(script, i + 2);
      nested.push(script.slice(i + 2, end));
      word += "$";
      i = end;
      continue;
    }
    if (char === "`") {
      const end = script.indexOf("`", i + 1);
      nested.push(script.slice(i + 1, end === -1 ? script.length : end));
      word += "$";
      i = end === -1 ? script.length : end;
      continue;
    }
    if (quote === '"') {
      if (char === '"') quote = undefined;
      else word += char;
      redirect = false;
      continue;
    }
    // `>&2`, `<&0`: a descriptor's copy, read alike by every shell. Any other `&` ends a command: bash reads
    // `&>file` as a redirection, dash as a background command and a redirection of the next; both readings'
    // programs count. An escaped `\>` is a word's character, so the `&` after it ends the command.
    const dup = char === "&" && redirect;
    redirect = char === ">" || char === "<";
    if (char === "'" || char === '"') quote = char;
    else if (dup) word += char;
    else if (";&|\n()".includes(char)) endCommand();
    else if (/\s/.test(char)) endWord();
    else word += char;
  }
  endCommand();
  for (const inner of nested) commands.push(...commandsOf(inner));
  return commands;
}

function closingParen(script: string, from: number): number {
  let depth = 1;
  for (let i = from; i < script.length; i++) {
    if (script[i] === "(") depth += 1;
    else if (script[i] === ")" && --depth === 0) return i;
  }
  return script.length;
}
