// Preloaded (`node --require`) into a peer that listens on every interface
// with no option to say otherwise (mcp-hub): a listen on a port alone
// listens on 127.0.0.1 instead. Used by e2e/bench_hop.py.
const net = require("node:net");

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  if (typeof args[0] === "number" && typeof args[1] !== "string") args.splice(1, 0, "127.0.0.1");
  return listen.apply(this, args);
};
