// Package tracker is a fixture: an issue tracker's tool with a typed
// output whose slices, maps and pointers a Go developer leaves nil, as the
// second hour of a real application does (issue "the second hour").
package tracker

//go:generate go run github.com/toolgen/toolgen/cmd/toolgen

// GetIssueInput is the input of the GetIssue tool.
//
//tool:name GetIssue
//tool:description Shows an issue with its comments.
//tool:side-effect read-only
//tool:output Issue
type GetIssueInput struct {
	// The issue's number.
	Number int `json:"number" tool:"required,min=1"`
}

// Issue is what GetIssue returns.
type Issue struct {
	// The issue's number.
	Number int `json:"number" tool:"required"`
	// The title.
	Title string `json:"title" tool:"required"`
	// The labels; none is an empty list.
	Labels Labels `json:"labels"`
	// Who works on it, if anyone.
	Assignee *User `json:"assignee"`
	// Who watches it.
	Watchers []*User `json:"watchers"`
	// The comments, oldest first.
	Comments []Comment `json:"comments"`
	// Custom fields by name.
	Fields map[string][]string `json:"fields"`
	// The milestone, if any.
	Milestone *Milestone `json:"milestone,omitempty"`
	// Checks of the last two builds.
	Checks [2][]string `json:"checks"`
	// Extra notes; left out when there are none.
	Notes []string `json:"notes,omitempty"`
}

// Labels are an issue's labels.
type Labels []string

// User is a person.
type User struct {
	// The login.
	Login string `json:"login" tool:"required"`
}

// Comment is one comment on an issue.
type Comment struct {
	// The author's login.
	Author string `json:"author"`
	// The text.
	Body string `json:"body"`
	// Reactions by emoji.
	Reactions map[string]int `json:"reactions"`
}

// Milestone is a release an issue is planned for.
type Milestone struct {
	// The milestone's title.
	Title string `json:"title"`
	// The issues blocking it.
	Blockers []int `json:"blockers"`
}

// LazyIssue is what a Go developer returns: every slice, map and pointer
// left nil where there is nothing, the nested ones too.
func LazyIssue(number int) *Issue {
	return &Issue{
		Number:    number,
		Title:     "Crash on start",
		Comments:  []Comment{{Author: "ada", Body: "Seen it too."}},
		Fields:    map[string][]string{"os": nil},
		Milestone: &Milestone{Title: "v1"},
	}
}

// LazyIssueJSON is LazyIssue(7) as the output schema describes it: [] and
// {} for the nil slices and maps, null only for the pointer the schema
// lets be null.
const LazyIssueJSON = `{"number":7,"title":"Crash on start","labels":[],"assignee":null,"watchers":[],` +
	`"comments":[{"author":"ada","body":"Seen it too.","reactions":{}}],"fields":{"os":[]},` +
	`"milestone":{"title":"v1","blockers":[]},"checks":[[],[]]}`
