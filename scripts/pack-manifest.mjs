// `npm pack` (and a git install, which packs the checkout): the packed package.json leaves out `prepare`, which
// builds dist/ in a checkout and has nothing to do in a tarball (npm 11 lists it among the scripts to approve
// when the tarball installs). `prepack` builds, then `strip` keeps the manifest beside it (npm then runs no
// `prepare` for the pack); `restore` after puts it back (and a `strip` that finds one kept from a pack that
// failed restores it first).
import { existsSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const root = join(import.meta.dirname, "..");
const manifest = join(root, "package.json");
const kept = join(root, ".package.json.packing");
if (existsSync(kept)) renameSync(kept, manifest);
if (process.argv[2] === "strip") {
  const text = readFileSync(manifest, "utf8");
  const parsed = JSON.parse(text);
  delete parsed.scripts.prepare;
  writeFileSync(kept, text);
  writeFileSync(manifest, `${JSON.stringify(parsed, null, 2)}\n`);
}
