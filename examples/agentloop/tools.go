package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/toolgen/toolgen/runtime/tool"
)

// The example's tools are hand-written (tool.New); generated tools work the
// same way. Their data is canned: the example needs no network.

func object(props map[string]any, required ...any) map[string]any {
	return map[string]any{"type": "object", "properties": props, "required": required, "additionalProperties": false}
}

func str(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }

// weatherTool reports canned weather; it is safe to run beside other safe
// tools, and takes part in the probe that shows a batch running in parallel.
func weatherTool(p *probe) tool.Tool {
	weather := map[string]string{"Paris": "light rain, 14°C", "Tokyo": "clear, 22°C", "Lima": "overcast, 19°C"}
	return tool.New(tool.Definition{
		Name:        "Weather",
		Description: "Tells the current weather in a city.",
		InputSchema: object(map[string]any{"city": str("The city, e.g. Paris.")}, "city"),
		Concurrency: tool.Safe,
		SideEffect:  tool.ReadOnly,
	}, func(ctx context.Context, in tool.Input, _ tool.Context) tool.Result {
		city, err := tool.Param[string](in, "city")
		if err != nil {
			return tool.FailureFrom(err)
		}
		p.visit(ctx)
		w, ok := weather[city]
		if !ok {
			return tool.Failure(fmt.Sprintf("No weather for %s.", city))
		}
		return tool.Success(city + ": " + w)
	})
}

// localTimeTool reports a canned local time.
func localTimeTool(p *probe) tool.Tool {
	times := map[string]string{"Paris": "09:30", "Tokyo": "16:30", "Lima": "02:30"}
	return tool.New(tool.Definition{
		Name:        "LocalTime",
		Description: "Tells the local time in a city.",
		InputSchema: object(map[string]any{"city": str("The city, e.g. Tokyo.")}, "city"),
		Concurrency: tool.Safe,
		SideEffect:  tool.ReadOnly,
	}, func(ctx context.Context, in tool.Input, _ tool.Context) tool.Result {
		city, err := tool.Param[string](in, "city")
		if err != nil {
			return tool.FailureFrom(err)
		}
		p.visit(ctx)
		t, ok := times[city]
		if !ok {
			return tool.Failure(fmt.Sprintf("No time zone known for %s.", city))
		}
		return tool.Success(fmt.Sprintf("It is %s in %s.", t, city))
	})
}

// translateTool is registered as deferred: the model is offered it only
// once ToolSearch has found it.
func translateTool() tool.Tool {
	phrases := map[string]map[string]string{
		"good morning": {"fr": "bonjour", "de": "guten Morgen", "ja": "おはようございます"},
	}
	return tool.New(tool.Definition{
		Name:        "Translate",
		Description: "Translates a short phrase of English text into another language.",
		InputSchema: object(map[string]any{
			"text": str("The English text to translate."),
			"to":   map[string]any{"type": "string", "enum": []any{"fr", "de", "ja"}, "description": "The target language."},
		}, "text", "to"),
		Concurrency: tool.Safe,
		SideEffect:  tool.ReadOnly,
	}, func(_ context.Context, in tool.Input, _ tool.Context) tool.Result {
		text, err := tool.Param[string](in, "text")
		if err != nil {
			return tool.FailureFrom(err)
		}
		to, err := tool.Param[string](in, "to")
		if err != nil {
			return tool.FailureFrom(err)
		}
		if t, ok := phrases[text][to]; ok {
			return tool.Success(t)
		}
		return tool.Failure(fmt.Sprintf("No translation of %q into %s.", text, to))
	})
}

// deleteFilesTool exists but is not on the allow-list: the model is never
// offered it, and a call to it is denied before it runs.
func deleteFilesTool() tool.Tool {
	return tool.New(tool.Definition{
		Name:        "DeleteFiles",
		Description: "Deletes the files matching a glob.",
		InputSchema: object(map[string]any{"pattern": str("The glob of the files to delete.")}, "pattern"),
		SideEffect:  tool.Destructive,
	}, func(context.Context, tool.Input, tool.Context) tool.Result {
		panic("DeleteFiles ran: the allow-list should have stopped it")
	})
}

// probe shows that the calls of a batch run at the same time: once armed
// for n calls, each call waits (briefly) until all n have started, and the
// probe records the most calls it saw in flight at once.
type probe struct {
	mu       sync.Mutex
	want     int
	inFlight int
	most     int
	all      chan struct{}
}

// arm makes the next n calls wait for one another.
func (p *probe) arm(n int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.want, p.most, p.all = n, 0, make(chan struct{})
}

// visit is called by each tool call; it returns at once when the probe is
// not armed.
func (p *probe) visit(ctx context.Context) {
	p.mu.Lock()
	if p.want == 0 {
		p.mu.Unlock()
		return
	}
	p.inFlight++
	p.most = max(p.most, p.inFlight)
	all := p.all
	if p.inFlight == p.want {
		close(all)
	}
	p.mu.Unlock()
	// Run one at a time, the calls would each wait out this timer.
	timer := time.NewTimer(2 * time.Second)
	defer timer.Stop()
	select {
	case <-all:
	case <-timer.C:
	case <-ctx.Done():
	}
	p.mu.Lock()
	p.inFlight--
	p.mu.Unlock()
}

// disarm stops the probe and returns the most calls seen in flight at once.
func (p *probe) disarm() int {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.want = 0
	return p.most
}
