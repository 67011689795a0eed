// Package builtin is toolgen's set of ready-made agent tools: Read, Write,
// Edit, Glob, Grep and TodoWrite, plus the Bash tools when a shell is given.
// Each is an annotated input struct whose schema, binder and constructor
// toolgen generates (the *_toolgen.go files), like any user's tool.
//
// [Register] adds them to a [tool.Registry]; [RegisterCatalog] adds them to
// a catalog, as eager tools or, when named in [Options].Deferred, deferred
// ones; [Tools] returns them for a caller that registers them itself.
//
// # Confinement
//
// A relative path is resolved against the call's working directory
// ([tool.Context.WorkDir]), else [Options.Root], then cleaned lexically, as
// the permission system judges it; every file tool declares its path field
// as its PATH subject, so an allow-list entry such as Read(/tmp/**) works.
// When Options.Root is set, a path outside it is refused before the file
// system is touched, and files are opened through an [os.Root], so that
// ".." and symbolic links cannot leave the workspace, even if the tree
// changes between the permission check and the open. The refusal names only
// the path the model gave. A link whose absolute target is inside the
// root (ws/abs -> /ws/real) is followed within it, as the permission
// system follows it; a link out of the root is refused.
//
// # Allow-list patterns below the judged path
//
// The permission system judges the path a call names; Grep and Glob reach
// further. Each call carries its tool's own PATH patterns
// ([tool.Context.PathFilter]), and the two apply them to every file and
// directory they read or list: they do not descend into a directory where
// no pattern can match (with /ws/docs/*, nothing below /ws/docs/private),
// they skip files the patterns refuse, judging each file where it was
// really opened (so a link swapped between the check and the open is
// judged as what was opened), and the result says what was left out:
// "[2 files and 1 directory were skipped by the allow-list.]". Read, Write
// and Edit judge the file they open or replace the same way.
//
// # Bounds and cancellation
//
// Every file tool holds a bounded amount whatever the input: Read shows at
// most 512 KiB at once (then says where to read on), Grep reads files a
// buffer at a time and keeps only the entries it will show (offset is
// counted, not kept; the search stops once head_limit entries or 30,000
// characters are held), searching each line in its first MiB, and Glob
// keeps the 100 newest matches while it counts the rest. Each checks its
// call's context as it goes (between blocks of lines, buffers of a long
// line, directory reads, and within the regular expression on a long
// line), so a cancelled call ends within milliseconds with an error
// result, never a partial answer given as a success, and leaves no
// goroutine behind.
//
// # Reading
//
// Read streams: it reads no further than the last line it shows, so a
// file of any size costs one buffer. It opens regular files only, checking
// the mode before and after a non-blocking open, so a FIFO or a device
// never blocks it. A file whose first 8 KiB hold a NUL byte or a known
// binary signature (PNG, PDF, ZIP, ELF, UTF-16 ...) is refused with its
// type and size; invalid UTF-8 in a text file is shown as U+FFFD (one per
// run of bad bytes).
//
// # Writing
//
// Every file read is recorded in the run's read-files set
// ([tool.Context.ReadFiles]) with a version stamp: device, inode, size and
// modification time of the open file. Write and Edit refuse to change an
// existing file the run has not read, or whose stamp has changed since; a
// write records the new stamp, so the run may edit again. Writes go to a
// temporary file in the same directory, which is synced, given the old
// file's permission bits and renamed over it. Writes to one path are
// serialised within the process, so that of two runs editing the same
// file, the second sees the first's change.
//
// # Todos
//
// TodoWrite keeps the list per run: in the store bound to [TodosKey] when
// the run's context has one, otherwise in a store of the tool's own keyed
// by the run's read-files set, dropped when the run's context is collected.
package builtin

//go:generate go run github.com/toolgen/toolgen/cmd/toolgen
