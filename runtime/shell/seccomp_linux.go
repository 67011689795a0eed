package shell

import (
	"encoding/binary"
	"fmt"
	"os"
	"runtime"
)

// The seccomp filter a sandbox without network runs under: socket(2) with
// the AF_UNIX family fails with EACCES, so that no command connects to a
// unix socket of the host, wherever it lies (a read-only bind does not stop
// connect(2), and a container engine's or database's socket is a way out).
// socketpair(2) of AF_UNIX stays allowed for the stream and seqpacket
// types: it makes connected sockets that reach nothing else, and many
// programs need it; a datagram pair (SOCK_DGRAM, or SOCK_RAW, which is the
// same for AF_UNIX) fails with EACCES, as its sockets are unbound and
// sendto or connect reaches any host datagram socket by path. io_uring, which can create
// sockets without the socket system call, fails with ENOSYS; so does every
// system call made under another architecture than this program's (the x32
// ABI, 32-bit calls through int 0x80), except the 32-bit socket calls on
// x86-64, which are judged as the native ones are (socketcall, which hides
// its family in memory a filter cannot read, fails with EACCES). Where
// SandboxOptions.AllowUnixSockets names sockets, socket(AF_UNIX) is
// allowed and the file system's view keeps the others out of reach
// instead (unixview_linux.go).
//
// The filter is classic BPF, written out here: a dozen instructions do not
// need a library, and every one of them is tested through its effect
// (TestSandboxUnixSockets).

// Classic BPF opcodes and seccomp's return values and data offsets
// (linux/filter.h, linux/seccomp.h).
const (
	bpfLdAbsW  = 0x20 // BPF_LD | BPF_W | BPF_ABS
	bpfJeqK    = 0x15 // BPF_JMP | BPF_JEQ | BPF_K
	bpfJsetK   = 0x45 // BPF_JMP | BPF_JSET | BPF_K
	bpfJgeK    = 0x35 // BPF_JMP | BPF_JGE | BPF_K
	bpfRetK    = 0x06 // BPF_RET | BPF_K
	bpfAndK    = 0x54 // BPF_ALU | BPF_AND | BPF_K
	retAllow   = 0x7fff0000
	retErrno   = 0x00050000
	offNr      = 0
	offArch    = 4
	offArg0    = 16 // the low 32 bits of args[0] on a little-endian machine
	offArg1    = 24 // the low 32 bits of args[1]
	afUnix     = 1
	sockStream = 1
	sockSeqpkt = 5
	sockTypeMk = 0xf // the type's bits; SOCK_NONBLOCK and SOCK_CLOEXEC lie above
	errEACCES  = 13
	errENOSYS  = 38
	x32Bit     = 0x40000000
	ioUringMin = 425 // io_uring_setup, io_uring_enter, io_uring_register: 425-427 everywhere
	ioUringMax = 427

	auditArchX8664   = 0xc000003e
	auditArchI386    = 0x40000003
	auditArchAarch64 = 0xc00000b7
)

// sockFilter is struct sock_filter.
type sockFilter struct {
	code   uint16
	jt, jf uint8
	k      uint32
}

// filterArch is what the filter knows of one architecture.
type filterArch struct {
	audit      uint32
	socket     uint32 // __NR_socket
	socketpair uint32 // __NR_socketpair
	socketcall uint32 // __NR_socketcall, 0 where there is none
	x32        bool   // the x32 ABI's calls (nr | 0x40000000) come under this audit arch
}

// seccompArches are the architectures the filter judges on this machine:
// the native one first.
func seccompArches() ([]filterArch, error) {
	switch runtime.GOARCH {
	case "amd64":
		return []filterArch{
			{audit: auditArchX8664, socket: 41, socketpair: 53, x32: true},
			{audit: auditArchI386, socket: 359, socketpair: 360, socketcall: 102},
		}, nil
	case "arm64":
		return []filterArch{{audit: auditArchAarch64, socket: 198, socketpair: 199}}, nil
	}
	return nil, fmt.Errorf("no seccomp filter for %s: the sandbox closes unix sockets on amd64 and arm64 only", runtime.GOARCH)
}

// socketFilter returns the filter's program, as bwrap's --seccomp reads
// it: struct sock_filter after struct sock_filter in this machine's byte
// order. With allowUnix (SandboxOptions.AllowUnixSockets) socket(AF_UNIX)
// is allowed too, and the sandbox's view of the file system keeps the
// host's sockets out of reach (see unixview_linux.go); io_uring and
// other architectures' calls still fail with ENOSYS.
func socketFilter(allowUnix bool) ([]byte, error) {
	arches, err := seccompArches()
	if err != nil {
		return nil, err
	}
	// Each architecture's block ends in a jump to one of the three returns
	// at the end of the program; jumps are counted in instructions from
	// the next one, and a block is built back to front so that its
	// distances are known.
	// Jump targets are written symbolically while a block is built and
	// fixed up once its place is known: 0xff-allow, 0xff-deny, 0xff-nosys
	// for the returns, nextBlock for the next architecture's block.
	const (
		allow = iota
		deny
		nosys
		nextBlock = 0xfa
	)
	var prog []sockFilter
	var blocks [][]sockFilter
	for _, a := range arches {
		b := []sockFilter{
			{code: bpfLdAbsW, k: offArch},
			{code: bpfJeqK, k: a.audit, jt: 0, jf: nextBlock}, // another arch: the next block
			{code: bpfLdAbsW, k: offNr},
		}
		if a.x32 {
			b = append(b, sockFilter{code: bpfJsetK, k: x32Bit, jt: 0xff - nosys, jf: 0})
		}
		b = append(b,
			sockFilter{code: bpfJgeK, k: ioUringMin, jt: 0, jf: 2},
			sockFilter{code: bpfJgeK, k: ioUringMax + 1, jt: 1, jf: 0},
			sockFilter{code: bpfRetK, k: retErrno | errENOSYS},
		)
		if allowUnix {
			// Every other call of this architecture is allowed.
			b = append(b, sockFilter{code: bpfJeqK, k: a.socket, jt: 0xff - allow, jf: 0xff - allow})
			blocks = append(blocks, b)
			continue
		}
		if a.socketcall != 0 {
			b = append(b, sockFilter{code: bpfJeqK, k: a.socketcall, jt: 0xff - deny, jf: 0})
		}
		// socketpair(AF_UNIX) of a datagram type makes an unbound socket
		// whose sendto (or connect) reaches any host datagram socket by
		// its path: only the stream and seqpacket types, connected to
		// each other and to nothing else, are allowed.
		b = append(b,
			sockFilter{code: bpfJeqK, k: a.socketpair, jt: 0, jf: 6},
			sockFilter{code: bpfLdAbsW, k: offArg0},
			sockFilter{code: bpfJeqK, k: afUnix, jt: 0, jf: 0xff - allow},
			sockFilter{code: bpfLdAbsW, k: offArg1},
			sockFilter{code: bpfAndK, k: sockTypeMk},
			sockFilter{code: bpfJeqK, k: sockStream, jt: 0xff - allow, jf: 0},
			sockFilter{code: bpfJeqK, k: sockSeqpkt, jt: 0xff - allow, jf: 0xff - deny},
			sockFilter{code: bpfJeqK, k: a.socket, jt: 0, jf: 0xff - allow},
			sockFilter{code: bpfLdAbsW, k: offArg0},
			sockFilter{code: bpfJeqK, k: afUnix, jt: 0xff - deny, jf: 0xff - allow},
		)
		blocks = append(blocks, b)
	}
	total := 3 // the returns
	for _, b := range blocks {
		total += len(b)
	}
	// Another architecture than any block names: ENOSYS.
	returns := []sockFilter{
		{code: bpfRetK, k: retAllow},
		{code: bpfRetK, k: retErrno | errEACCES},
		{code: bpfRetK, k: retErrno | errENOSYS},
	}
	for i, b := range blocks {
		start := len(prog)
		next := start + len(b) // the next block, or the returns
		if i == len(blocks)-1 {
			next = total - 3 + nosys
		}
		for j, ins := range b {
			at := start + j
			fix := func(t uint8) (uint8, error) {
				var target int
				switch {
				case t == nextBlock:
					target = next
				case t >= 0xff-nosys:
					target = total - 3 + int(0xff-t)
				default:
					return t, nil
				}
				d := target - at - 1
				if d < 0 || d > 0xfd {
					return 0, fmt.Errorf("seccomp filter: jump of %d instructions", d)
				}
				return uint8(d), nil
			}
			if ins.code == bpfJeqK || ins.code == bpfJsetK || ins.code == bpfJgeK {
				if ins.jt, err = fix(ins.jt); err != nil {
					return nil, err
				}
				if ins.jf, err = fix(ins.jf); err != nil {
					return nil, err
				}
			}
			prog = append(prog, ins)
		}
	}
	prog = append(prog, returns...)
	out := make([]byte, 0, 8*len(prog))
	for _, ins := range prog {
		out = binary.NativeEndian.AppendUint16(out, ins.code)
		out = append(out, ins.jt, ins.jf)
		out = binary.NativeEndian.AppendUint32(out, ins.k)
	}
	return out, nil
}

// pipeHolding returns a pipe's read end holding data, for bwrap to read
// (a seccomp program through --seccomp, a file's contents through --file).
func pipeHolding(data []byte) (*os.File, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	_, err = w.Write(data) // far below a pipe's buffer
	w.Close()
	if err != nil {
		r.Close()
		return nil, err
	}
	return r, nil
}
