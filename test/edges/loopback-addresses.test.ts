import { expect, test } from "vitest";
import { isLoopback, isLoopbackAddress } from "../../src/pipeline/hosts.js";

// Loopback was refused as if remote in two spellings (`[::ffff:127.0.0.1]`, `0:0:0:0:0:0:0:1`), and a name
// (`localhost` with a `lookup` of its own) decided where the address should have.
test("loopback is 127.0.0.0/8, ::1 in every spelling and ::ffff:127.0.0.0/104, decided on the address alone", () => {
  const loopback = [
    "127.0.0.1",
    "127.1.2.3",
    "::1",
    "[::1]",
    "0:0:0:0:0:0:0:1",
    "0000:0000:0000:0000:0000:0000:0000:0001",
    "::ffff:127.0.0.1",
    "[::ffff:127.0.0.1]",
    "::ffff:7f00:1",
    "0:0:0:0:0:ffff:7f00:1",
    "0.0.0.0",
    "::",
  ];
  const beyond = ["192.0.2.2", "::2", "::ffff:192.0.2.2", "::ffff:c000:202", "::ffff:8000:1", "1::1", "fe80::1", "128.0.0.1", "10.0.0.1"];
  expect(loopback.filter((address) => !isLoopbackAddress(address))).toEqual([]);
  expect(beyond.filter((address) => isLoopbackAddress(address))).toEqual([]);
  // A name is never an address; as a first look before a connection, only `localhost` itself.
  expect(["localhost", "data.localhost"].map(isLoopbackAddress)).toEqual([false, false]);
  expect(["localhost", "LOCALHOST", "data.localhost", "example.com"].map(isLoopback)).toEqual([true, true, false, false]);
});
