package permission

import (
	"strings"
	"testing"
)

// lineCase is one line of a table of judged lines: the list's entries,
// whether compound commands are on, the line, and whether the judge must
// allow it.
type lineCase struct {
	entries  []string
	compound bool
	cmd      string
	want     bool
}

// checkLines judges each case's line with workDir as the working
// directory ("" for none). subst, when not nil, first rewrites the
// entries and the line (placeholders such as WS for the workspace).
func checkLines(t *testing.T, workDir string, subst *strings.Replacer, cases []lineCase) {
	t.Helper()
	for _, tt := range cases {
		var opts []Option
		if tt.compound {
			opts = append(opts, WithCompoundCommands())
		}
		entries, cmd := tt.entries, tt.cmd
		if subst != nil {
			entries = make([]string, len(tt.entries))
			for i, e := range tt.entries {
				entries[i] = subst.Replace(e)
			}
			cmd = subst.Replace(cmd)
		}
		l, err := ParseWith(entries, opts...)
		if err != nil {
			t.Fatal(err)
		}
		r := cmdReq("Bash", cmd)
		r.WorkDir = workDir
		if d := l.Decide(r); d.Allowed != tt.want {
			t.Errorf("%v (compound %v) %q: allowed %v, want %v (%s)", tt.entries, tt.compound, tt.cmd, d.Allowed, tt.want, d.Detail)
		}
	}
}
