import { cliProxy, reportCliProxy } from "./cli-proxy.js";
import { httpMock, reportHttpMock } from "./http-mock.js";
import { modelTurn, reportModelTurn } from "./model-turn.js";
import { sessionMemory } from "./session-memory.js";
import { reportStubOverhead, stubOverhead } from "./stub-overhead.js";
import { reportWireCompletion, wireCompletion } from "./wire-completion.js";

console.log(`node ${process.version}\n`);
console.log(reportStubOverhead(await stubOverhead()));
const memory = await sessionMemory();
console.log(`session with ${memory.calls} recorded calls: ${(memory.bytes / 1024 / 1024).toFixed(2)} MB of heap`);
console.log(`after 2,000 rule sets with distinct matches, the bounded caches hold: ${memory.validators}\n`);
console.log(reportModelTurn(await modelTurn()));
console.log();
console.log(reportWireCompletion(await wireCompletion()));
console.log();
console.log(reportCliProxy(await cliProxy()));
console.log();
console.log(reportHttpMock(await httpMock()));
