package toolimpl

// SupportsGenerated1 is the version guard of the files toolgen generates
// for version 1 of this package's API: each refers to it,
//
//	const _ = toolimpl.SupportsGenerated1
//
// and toolimpl declares SupportsGeneratedN for each version N it supports,
// so that a file generated for another version fails to build at that line
// ("undefined: toolimpl.SupportsGenerated1"). Re-run toolgen (go
// generate) with the toolgen version your go.mod requires. See Versions in
// the package doc.
const SupportsGenerated1 = true
