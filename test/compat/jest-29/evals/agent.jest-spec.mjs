// The evals of cases.cjs in Jest's ESM mode (--experimental-vm-modules): `import "tooltrace"`.
import { createSession } from "tooltrace";
import agentCases from "./cases.cjs";

agentCases(createSession);
