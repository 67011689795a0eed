package permission

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func mustParse(t *testing.T, entries ...string) List {
	t.Helper()
	l, err := Parse(entries...)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func TestIntersect(t *testing.T) {
	caller := mustParse(t, "Read", "Grep", "Bash(git:*)", "Write(/tmp/**)")
	own := mustParse(t, "Read(/tmp/**)", "Bash(git status:*)", "Bash(ls)", "Write(/tmp/a/**)", "Edit")
	got, err := Intersect(caller, own)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("Read(/tmp/**), [Bash(git:*)] & [Bash(git status:*), Bash(ls)], [Write(/tmp/**)] & [Write(/tmp/a/**)]", got.String()); diff != "" {
		t.Errorf("String (-want +got):\n%s", diff)
	}
	cases := []struct {
		req  Request
		want bool
	}{
		{pathReq("Read", "/tmp/x", ""), true},
		{pathReq("Read", "/etc/passwd", ""), false}, // Read ∩ Read(/tmp/**) is Read(/tmp/**)
		{Request{Tool: "Grep"}, false},              // only the caller has it
		{Request{Tool: "Edit"}, false},              // only own has it
		{cmdReq("Bash", "git status"), true},        // both
		{cmdReq("Bash", "git diff"), false},         // caller only
		{cmdReq("Bash", "ls"), false},               // own only
		{pathReq("Write", "/tmp/a/b", ""), true},    // both constraints hold
		{pathReq("Write", "/tmp/b", ""), false},     // only the caller's holds
	}
	for _, c := range cases {
		if d := got.Decide(c.req); d.Allowed != c.want {
			t.Errorf("Decide(%s %v) = %v, want %v (%s)", c.req.Tool, c.req.Subject, d.Allowed, c.want, d.Detail)
		}
	}
	// Intersection is symmetric in what it allows.
	rev, err := Intersect(own, caller)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if a, b := got.Decide(c.req).Allowed, rev.Decide(c.req).Allowed; a != b {
			t.Errorf("asymmetric for %s %v", c.req.Tool, c.req.Subject)
		}
	}
}

func TestIntersectIdentityAndEmpty(t *testing.T) {
	l := mustParse(t, "Read(/tmp/**)")
	for _, pair := range [][2]List{{{}, l}, {l, {}}} {
		got, err := Intersect(pair[0], pair[1])
		if err != nil || got.String() != l.String() {
			t.Errorf("zero List is not the identity: %v, %v", got, err)
		}
	}
	if got, err := Intersect(List{}, List{}); err != nil || got.Restricted() {
		t.Errorf("zero ∩ zero = %v, %v", got, err)
	}
	_, err := Intersect(mustParse(t, "Read"), mustParse(t, "Write"))
	want := "permission: the lists share no tool (caller allows Read; own allows Write), so the run is denied"
	if err == nil || err.Error() != want {
		t.Errorf("empty intersection: %v", err)
	}
	if _, err := Intersect(mustParse(t, "Read"), mustParse(t)); err == nil {
		t.Error("an empty own list must make the intersection empty")
	}
}

func TestIntersectCeilingAndCompound(t *testing.T) {
	a, _ := ParseWith([]string{"Bash(git:*)", "Write"}, WithCeiling(Mutating), WithCompoundCommands())
	b, _ := ParseWith([]string{"Bash(git:*)", "Write"}, WithCompoundCommands())
	got, err := Intersect(a, b.Capped(ReadOnly))
	if err != nil {
		t.Fatal(err)
	}
	if got.Ceiling() != ReadOnly || !got.CompoundCommands() {
		t.Errorf("ceiling %v compound %v", got.Ceiling(), got.CompoundCommands())
	}
	if got.Decide(Request{Tool: "Write", Level: Mutating}).Allowed {
		t.Error("Write is above the read-only ceiling")
	}
	c := mustParse(t, "Bash(git:*)")
	got, _ = Intersect(a, c)
	if got.CompoundCommands() {
		t.Error("compound stays on only when both lists have it")
	}
	req := cmdReq("Bash", "git status && git diff")
	req.Level = ReadOnly
	if got.Decide(req).Allowed {
		t.Error("strict list must deny a compound command")
	}
	capped, err := Intersect(List{}, List{}.Capped(ReadOnly))
	if err != nil || capped.Ceiling() != ReadOnly || capped.Restricted() {
		t.Errorf("a ceiling on the zero List: %v %v", capped, err)
	}
	if capped.Decide(Request{Tool: "Anything", Level: Mutating}).Allowed || !capped.Decide(Request{Tool: "Anything", Level: ReadOnly}).Allowed {
		t.Error("a capped zero List filters by level only")
	}
}

func TestOffered(t *testing.T) {
	tools := []Descriptor{
		{Name: "Read", Level: ReadOnly},
		{Name: "Write", Level: Mutating},
		{Name: "Bash", Level: Destructive},
		{Name: ToolSearch, Level: ReadOnly},
		{Name: "Slack", Level: Mutating, Deferred: true},
	}
	tests := []struct {
		name string
		list List
		want Offering
	}{
		{"zero", List{}, Offering{Eager: []string{"Read", "Write", "Bash", ToolSearch}, Deferred: []string{"Slack"}}},
		{"some", mustParse(t, "Read", "Slack", ToolSearch), Offering{Eager: []string{"Read", ToolSearch}, Deferred: []string{"Slack"}}},
		{"unknown names", mustParse(t, "read", "Nope"), Offering{Warnings: []string{
			"the allow-list names tools that are not available (names are case-sensitive): read, Nope",
			"no tool is offered to the model: the allow-list names no available tool",
		}}},
		{"everything above the ceiling", mustParse(t, "Write", "Bash").Capped(ReadOnly), Offering{Warnings: []string{
			"tools above the side-effect ceiling (read-only) are left out: Write (mutating), Bash (destructive)",
			"no tool is offered to the model: every allowed tool is above the side-effect ceiling (read-only)",
		}}},
		{"deferred without ToolSearch", mustParse(t, "Slack"), Offering{Deferred: []string{"Slack"}, Warnings: []string{
			"deferred tools are allowed but ToolSearch is not offered, so they can never be found: Slack",
			"no tool is offered to the model: only deferred tools are allowed and ToolSearch is not offered",
		}}},
		{"empty list", mustParse(t), Offering{Warnings: []string{"no tool is offered to the model: the allow-list is empty"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, tt.list.Offered(tools)); diff != "" {
				t.Errorf("Offered (-want +got):\n%s", diff)
			}
		})
	}
	if w := (List{}).Offered(nil).Warnings; len(w) != 1 || w[0] != "no tool is offered to the model: no tool is available" {
		t.Errorf("no tools: %q", w)
	}
}
