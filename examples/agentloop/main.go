// Command agentloop runs an agent loop against a scripted model (a fake
// that returns canned Anthropic Messages API responses; no LLM is called)
// with provider.Loop, and prints what happens in each iteration:
//
//   - the tools offered are re-read every iteration, so a tool that
//     ToolSearch activated is offered from the next one on;
//   - a response with several calls of safe tools runs them as one parallel
//     batch (tool.WithConcurrency);
//   - a call to a tool the allow-list leaves out is denied without running,
//     and the repeat guard tells the model to stop once it repeats it.
//
// Run it with `go run ./examples/agentloop`. With a real model, Create
// would be the SDK's client.Messages.New and the rest stays the same.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/toolgen/toolgen/builtin"
	"github.com/toolgen/toolgen/runtime/catalog"
	"github.com/toolgen/toolgen/runtime/permission"
	"github.com/toolgen/toolgen/runtime/provider"
	"github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/tool"
)

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "agentloop:", err)
		os.Exit(1)
	}
}

// maxIterations bounds the loop, as every agent loop should be bounded.
const maxIterations = 10

func run(w io.Writer) error {
	ctx := context.Background()
	p := &probe{}

	// One catalog for the agent: Translate is deferred, found by search.
	cat := catalog.New()
	search, err := builtin.Tools(builtin.Options{Tools: []string{builtin.ToolSearchName}})
	if err != nil {
		return err
	}
	for _, t := range append([]tool.Tool{weatherTool(p), localTimeTool(p), deleteFilesTool()}, search...) {
		if err := cat.Register(t); err != nil {
			return err
		}
	}
	if err := cat.RegisterAs(translateTool(), tool.Deferred); err != nil {
		return err
	}

	allow, err := permission.Parse("Weather", "LocalTime", "Translate", "ToolSearch")
	if err != nil {
		return err
	}
	// Each run gets its own view of the catalog; searching never reveals a
	// tool the allow-list leaves out.
	view := cat.NewRun(catalog.Restrict(allow.Offers))
	exec := tool.NewExecutor(view,
		tool.WithAllowList(allow),
		tool.WithSchemaMode(schema.Enforce),
		tool.WithConcurrency(4, 4),
		tool.WithLogger(slog.New(slog.DiscardHandler))) // the output below is what the model sees
	loop := provider.NewLoop(exec,
		provider.WithContext(tool.NewContext(catalog.ViewKey.Bind(view))),
		provider.WithRepeatLimit(2))

	model := script()
	var messages []any
	for i := 1; i <= maxIterations; i++ {
		tools := loop.AnthropicTools() // re-read: ToolSearch may have changed the set
		fmt.Fprintf(w, "iteration %d\n  offered: %s\n", i, names(tools))
		raw, err := model.Create(request{Tools: tools, Messages: messages})
		if err != nil {
			return err
		}
		var resp struct {
			Content []json.RawMessage `json:"content"`
		}
		if err := json.Unmarshal(raw, &resp); err != nil {
			return err
		}
		showAssistant(w, resp.Content)

		calls, err := provider.ParseAnthropicToolUses(raw)
		if err != nil {
			return err
		}
		if len(calls) > 1 {
			runnable, _ := provider.Calls(calls)
			mode := "one after another"
			if exec.Parallel(runnable) {
				mode = "in parallel"
			}
			fmt.Fprintf(w, "  batch of %d calls, run %s\n", len(calls), mode)
			p.arm(len(calls))
		}
		msg, more, err := loop.AnthropicStep(ctx, raw)
		if err != nil {
			return err
		}
		if len(calls) > 1 {
			fmt.Fprintf(w, "  calls in flight at once: %d\n", p.disarm())
		}
		if !more {
			fmt.Fprintln(w, "  no tool calls: the model is done")
			return nil
		}
		for j, r := range msg.Content {
			status := "ok"
			if r.IsError {
				status = "error"
			}
			fmt.Fprintf(w, "  %s -> [%s] %s\n", calls[j].Call.Name, status, indent(r.Text()))
		}
		messages = append(messages, json.RawMessage(raw), msg)
	}
	return fmt.Errorf("the model did not finish in %d iterations", maxIterations)
}

func names(tools []provider.AnthropicTool) string {
	var out []string
	for _, t := range tools {
		out = append(out, t.Name)
	}
	return strings.Join(out, ", ")
}

// showAssistant prints the model's text and tool calls.
func showAssistant(w io.Writer, content []json.RawMessage) {
	for _, raw := range content {
		var b struct {
			Type  string          `json:"type"`
			Text  string          `json:"text"`
			Name  string          `json:"name"`
			Input json.RawMessage `json:"input"`
		}
		if json.Unmarshal(raw, &b) != nil {
			continue
		}
		switch b.Type {
		case "text":
			fmt.Fprintf(w, "  model: %s\n", b.Text)
		case "tool_use":
			fmt.Fprintf(w, "  model calls %s %s\n", b.Name, b.Input)
		}
	}
}

// indent indents the lines after the first of a result, leaving blank
// lines blank.
func indent(s string) string {
	lines := strings.Split(s, "\n")
	for i := 1; i < len(lines); i++ {
		if lines[i] != "" {
			lines[i] = "     " + lines[i]
		}
	}
	return strings.Join(lines, "\n")
}
