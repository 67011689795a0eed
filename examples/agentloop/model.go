package main

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/toolgen/toolgen/runtime/provider"
)

// request is what the loop sends the model each iteration, shaped like the
// Messages API's request: the tools offered now and the conversation.
type request struct {
	Tools    []provider.AnthropicTool `json:"tools"`
	Messages []any                    `json:"messages"`
}

// scriptedModel stands in for an LLM: each turn returns a canned assistant
// message, in the Messages API's JSON, as a client SDK would receive it.
// Like a model, it can only call what it is offered, except when the
// script makes it misbehave on purpose.
type scriptedModel struct {
	turns []func(offered []string) []block
	next  int
}

// block is an assistant content block: text or tool_use.
type block map[string]any

func text(s string) block { return block{"type": "text", "text": s} }

func toolUse(id, name string, input map[string]any) block {
	return block{"type": "tool_use", "id": id, "name": name, "input": input}
}

// Create answers one request with the next turn of the script, as raw JSON.
func (m *scriptedModel) Create(req request) ([]byte, error) {
	if m.next == len(m.turns) {
		return nil, fmt.Errorf("the script has no turn %d", m.next+1)
	}
	var offered []string
	for _, t := range req.Tools {
		offered = append(offered, t.Name)
	}
	content := m.turns[m.next](offered)
	m.next++
	stop := "end_turn"
	if slices.ContainsFunc(content, func(b block) bool { return b["type"] == "tool_use" }) {
		stop = "tool_use"
	}
	return json.Marshal(map[string]any{
		"id": fmt.Sprintf("msg_%02d", m.next), "type": "message", "role": "assistant",
		"model": "scripted", "content": content, "stop_reason": stop,
	})
}

// script is the conversation the example plays: find a tool by search, use
// it, run a parallel batch, make a denied call twice, and finish.
func script() *scriptedModel {
	return &scriptedModel{turns: []func([]string) []block{
		func(offered []string) []block {
			if slices.Contains(offered, "Translate") {
				return []block{text("Translate is offered from the start: the catalog did not defer it.")}
			}
			return []block{
				text("I have no translation tool; let me search for one."),
				toolUse("toolu_01", "ToolSearch", map[string]any{"query": "translate text"}),
			}
		},
		func(offered []string) []block {
			if !slices.Contains(offered, "Translate") {
				return []block{text("The search found nothing I can use.")}
			}
			return []block{
				text("Translate is offered now."),
				toolUse("toolu_02", "Translate", map[string]any{"text": "good morning", "to": "fr"}),
			}
		},
		func([]string) []block {
			return []block{
				text("Checking both cities at once."),
				toolUse("toolu_03", "Weather", map[string]any{"city": "Paris"}),
				toolUse("toolu_04", "Weather", map[string]any{"city": "Tokyo"}),
				toolUse("toolu_05", "LocalTime", map[string]any{"city": "Tokyo"}),
			}
		},
		func([]string) []block {
			// A model may call a tool it was never offered.
			return []block{
				text("Let me clean up the temporary files."),
				toolUse("toolu_06", "DeleteFiles", map[string]any{"pattern": "/tmp/*"}),
			}
		},
		func([]string) []block {
			return []block{
				text("Trying again."),
				toolUse("toolu_07", "DeleteFiles", map[string]any{"pattern": "/tmp/*"}),
			}
		},
		func([]string) []block {
			return []block{text("Bonjour! Paris has light rain at 14°C; in Tokyo it is clear, 22°C, at 16:30. I could not delete files: that is not allowed here.")}
		},
	}}
}
