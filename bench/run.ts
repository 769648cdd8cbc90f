import { reportStubOverhead, stubOverhead } from "./stub-overhead.js";
import { sessionMemory } from "./session-memory.js";

const overhead = await stubOverhead();
console.log(reportStubOverhead(overhead));
const memory = await sessionMemory();
console.log(`session with ${memory.calls} recorded calls: ${(memory.bytes / 1024 / 1024).toFixed(2)} MB of heap`);
