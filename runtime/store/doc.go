// Package store keeps the state of a conversation outside the process that
// serves it, so that several replicas of an MCP server (cmd/toolmcp behind
// a load balancer) serve one conversation: the todo list, the files read
// (the read-before-write rule), the tools ToolSearch activated, which
// replica runs each background command, and the MCP session itself.
//
// A [Store] holds, per conversation, a small map of named fields with
// string values, and forgets a conversation left untouched for its
// time-to-live. Fields are written one by one ([Store.Update] sets some
// and deletes others), so that two replicas writing different fields of
// one conversation at once (two files read) do not undo each other's
// writes; a field written by both at once holds the last write.
//
// [NewMemory] is the default, for one process; package
// [github.com/toolgen/toolgen/runtime/store/redisstore] keeps the fields
// in Redis (a hash per conversation), shared by every replica. The
// conversation key is what the protocol gives: the MCP session id on the
// stateful path (revisions up to 2025-11-25), the conversation a
// stateless request names (2026-07-28; see runtime/mcpbridge).
package store
