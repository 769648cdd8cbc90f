// The evals of cases.cjs in Jest's CommonJS mode: `require("tooltrace")`.
const { createSession } = require("tooltrace");

require("./cases.cjs")(createSession);
