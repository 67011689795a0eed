package main

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/toolgen/toolgen/runtime/tool"
)

//go:generate go run github.com/toolgen/toolgen/cmd/toolgen

// AddNoteInput is the input of the AddNote tool: toolgen writes its schema,
// BindAddNoteInput and NewAddNoteTool into notes_toolgen.go.
//
//tool:name AddNote
//tool:description Saves a short note in the notebook, under a title, with optional tags.
//tool:concurrency sequential
//tool:side-effect mutating
type AddNoteInput struct {
	// The note's title; a note with the same title is replaced.
	Title string `json:"title" tool:"required,minlen=1,maxlen=80"`
	// The text of the note.
	Body string `json:"body" tool:"required"`
	// Words to find the note by later.
	Tags []string `json:"tags,omitempty" tool:"maxitems=5"`
}

// FindNotesInput is the input of the FindNotes tool.
//
//tool:name FindNotes
//tool:description Lists the notes that carry a tag, or every note when no tag is given, sorted by title.
//tool:concurrency safe
//tool:side-effect read-only
type FindNotesInput struct {
	// Only notes with this tag.
	Tag string `json:"tag,omitempty" tool:"pattern='^[a-z0-9-]+$'"`
	// How many notes to return at most.
	Limit int `json:"limit,omitempty" tool:"default=10,min=1,max=50,clamp"`
}

// note is one saved note.
type note struct {
	title, body string
	tags        []string
}

// notebook holds the notes; its methods are the tools' functions (method
// values bring the notebook to the generated tools by closure).
type notebook struct {
	mu    sync.Mutex
	notes map[string]note
}

func newNotebook() *notebook { return &notebook{notes: map[string]note{}} }

// Add is the AddNote tool.
func (nb *notebook) Add(_ context.Context, in AddNoteInput, _ tool.Context) (string, error) {
	nb.mu.Lock()
	defer nb.mu.Unlock()
	_, replaced := nb.notes[in.Title]
	nb.notes[in.Title] = note{title: in.Title, body: in.Body, tags: slices.Clone(in.Tags)}
	if replaced {
		return fmt.Sprintf("Replaced the note %q.", in.Title), nil
	}
	if len(nb.notes) == 1 {
		return fmt.Sprintf("Saved the note %q; it is the only one.", in.Title), nil
	}
	return fmt.Sprintf("Saved the note %q; the notebook holds %d.", in.Title, len(nb.notes)), nil
}

// Find is the FindNotes tool.
func (nb *notebook) Find(_ context.Context, in FindNotesInput, _ tool.Context) (string, error) {
	nb.mu.Lock()
	defer nb.mu.Unlock()
	var found []note
	for _, n := range nb.notes {
		if in.Tag == "" || slices.Contains(n.tags, in.Tag) {
			found = append(found, n)
		}
	}
	if len(found) == 0 {
		return "No notes found.", nil
	}
	slices.SortFunc(found, func(a, b note) int { return strings.Compare(a.title, b.title) })
	var b strings.Builder
	for i, n := range found {
		if i == in.Limit {
			fmt.Fprintf(&b, "(%d more)\n", len(found)-i)
			break
		}
		fmt.Fprintf(&b, "- %s: %s", n.title, n.body)
		if len(n.tags) > 0 {
			fmt.Fprintf(&b, " [%s]", strings.Join(n.tags, ", "))
		}
		b.WriteByte('\n')
	}
	return strings.TrimSuffix(b.String(), "\n"), nil
}
