package builtin

import (
	"bytes"
	"strings"
	"testing"
)

// FuzzProcFiles feeds the same bytes to the readers of /proc files that
// KillShell uses, and checks them against plain definitions.
func FuzzProcFiles(f *testing.F) {
	f.Add([]byte("4242 (sleep) S 1 4242 4242 0 -1 4194560"), []byte("TOOLGEN_BACKGROUND_ID=bash_1-x\x00"))
	f.Add([]byte("1 (a) b) Z 0"), []byte("A=1\x00TOOLGEN_BACKGROUND_ID=bash_1-x"))
	f.Add([]byte("Name:\tsleep\nSigPnd:\t0000000000000100\nShdPnd:\t0000000000000000\n"), []byte{})
	f.Add([]byte("SigPnd: zz\nShdPnd:\t100\n"), []byte("\x00\x00"))
	f.Fuzz(func(t *testing.T, file, env []byte) {
		if name, state, ok := parseProcStat(file); ok {
			end := bytes.LastIndexByte(file, ')')
			if state != file[end+2] || !bytes.Contains(file, []byte("("+name+")")) {
				t.Errorf("parseProcStat(%q) = %q, %q", file, name, state)
			}
		}
		killPending(file)

		const needle = "TOOLGEN_BACKGROUND_ID=bash_1-x"
		want := false
		for _, e := range strings.Split(string(env), "\x00") {
			want = want || e == needle
		}
		if got := hasEnvEntry(env, []byte(needle+"\x00")); got != want {
			t.Errorf("hasEnvEntry(%q) = %v, want %v", env, got, want)
		}
	})
}

// FuzzCheckPassEnv checks that an accepted entry is a name, or a prefix
// ending in one "*", that shell.Options.PassEnv reads as such.
func FuzzCheckPassEnv(f *testing.F) {
	for _, s := range []string{"PATH", "LC_*", "*", "A=B", "", "A**", "A B", "*X"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, e string) {
		if checkPassEnv([]string{e}) != nil {
			return
		}
		name := strings.TrimSuffix(e, "*")
		if strings.ContainsAny(name, "=*\x00 \t\r\n") || (name == "" && e != "*") {
			t.Errorf("accepted %q", e)
		}
	})
}

// FuzzRing runs writes and reads of the lengths in ops (two bytes each: a
// write of the first's length, or a discard when it is odd) over rings
// of small sizes, against a plain slice.
func FuzzRing(f *testing.F) {
	f.Add(uint8(7), uint8(3), []byte{5, 9, 200, 4, 8})
	f.Add(uint8(1), uint8(1), []byte{2, 3, 0, 255})
	f.Fuzz(func(t *testing.T, maxB, chunkB uint8, ops []byte) {
		maxN, chunk := int(maxB)%64+1, int(chunkB)%16+1
		st := &outStore{chunk: chunk, maxChunks: 1 << 20}
		r := ring{max: maxN, store: st}
		var ref []byte
		seq := byte(0)
		for _, op := range ops {
			n := int(op >> 1)
			if op&1 == 1 {
				r.discard(n)
				ref = ref[min(n, len(ref)):]
			} else {
				p := make([]byte, n)
				for i := range p {
					p[i] = seq
					seq++
				}
				r.write(p)
				ref = append(ref, p...)
				ref = ref[max(0, len(ref)-maxN):]
			}
			if !bytes.Equal(r.bytes(), ref) {
				t.Fatalf("ring holds %v, want %v", r.bytes(), ref)
			}
			if most := (maxN+chunk-1)/chunk + 1; len(r.chunks) > most || st.allocated-len(st.free) != len(r.chunks) {
				t.Fatalf("%d chunks (at most %d), store counts %d", len(r.chunks), most, st.allocated-len(st.free))
			}
		}
	})
}
