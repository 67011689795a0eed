package main

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The fixtures of the suite's 2026-07-28 scenarios, as the SDK's own tools
// and prompt added to the server mcpbridge hands out (mcpbridge lets the
// SDK call a tool it was given that way): the multi-round input requests
// of SEP-2322 (a tool or prompt that needs input answers input_required
// with its requests, and the client calls again with the responses and
// the requestState it was given; a tool.Result cannot say input_required
// yet), the diagnostic tools of server-stateless (SEP-2575), and the hooks
// with which the suite changes the tool and prompt lists.

// stateKey signs every requestState, so that a client cannot forge one.
var stateKey = func() []byte {
	k := make([]byte, 32)
	_, _ = rand.Read(k)
	return k
}()

// sealState returns s signed: base64(s) "." base64(hmac(s)).
func sealState(s string) string {
	m := hmac.New(sha256.New, stateKey)
	m.Write([]byte(s))
	return base64.RawURLEncoding.EncodeToString([]byte(s)) + "." + base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// openState returns the state sealState signed, or an error when it was
// changed.
func openState(sealed string) (string, error) {
	body, sig, ok := strings.Cut(sealed, ".")
	raw, err1 := base64.RawURLEncoding.DecodeString(body)
	want, err2 := base64.RawURLEncoding.DecodeString(sig)
	if !ok || err1 != nil || err2 != nil {
		return "", badState()
	}
	m := hmac.New(sha256.New, stateKey)
	m.Write(raw)
	if !hmac.Equal(m.Sum(nil), want) {
		return "", badState()
	}
	return string(raw), nil
}

func badState() error {
	return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "requestState failed its integrity check: it was changed or was not issued by this server; call again without it"}
}

func elicit(message, field string) *mcp.ElicitParams {
	return &mcp.ElicitParams{Message: message, RequestedSchema: map[string]any{
		"type":       "object",
		"properties": map[string]any{field: map[string]any{"type": "string"}},
		"required":   []any{field},
	}}
}

func sample(text string, max int64) *mcp.CreateMessageParams {
	return &mcp.CreateMessageParams{MaxTokens: max, Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: text}}}}
}

// asking is an input_required answer.
func asking(reqs mcp.InputRequestMap, state string) *mcp.CallToolResult {
	return &mcp.CallToolResult{InputRequests: reqs, RequestState: state}
}

func textResult(format string, args ...any) *mcp.CallToolResult {
	return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf(format, args...)}}}
}

// elicited returns the content field of an accepted elicitation response.
func elicited(r mcp.InputResponse, field string) (string, bool) {
	er, ok := r.(*mcp.ElicitResult)
	if !ok || er == nil || er.Content == nil {
		return "", false
	}
	v, ok := er.Content[field].(string)
	return v, ok
}

// sampled returns the text of a sampling response (the SDK decodes one
// as the result with tools when its content is a list).
func sampled(r mcp.InputResponse) (string, bool) {
	switch cr := r.(type) {
	case *mcp.CreateMessageResult:
		if tc, ok := cr.Content.(*mcp.TextContent); ok && cr != nil {
			return tc.Text, true
		}
	case *mcp.CreateMessageWithToolsResult:
		for _, c := range cr.Content {
			if tc, ok := c.(*mcp.TextContent); ok {
				return tc.Text, true
			}
		}
		if cr != nil {
			return "", true
		}
	}
	return "", false
}

func roots(r mcp.InputResponse) ([]string, bool) {
	lr, ok := r.(*mcp.ListRootsResult)
	if !ok || lr == nil {
		return nil, false
	}
	var out []string
	for _, rt := range lr.Roots {
		out = append(out, rt.URI)
	}
	return out, true
}

// addInputTools adds the suite's input-required tools and prompt.
func addInputTools(s *mcp.Server) {
	noArgs := map[string]any{"type": "object"}
	add := func(name, desc string, h mcp.ToolHandler) {
		s.AddTool(&mcp.Tool{Name: name, Description: desc, InputSchema: noArgs}, h)
	}
	add("test_input_required_result_elicitation", "Asks the user's name, then greets them (SEP-2322).",
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if name, ok := elicited(req.Params.InputResponses["user_name"], "name"); ok {
				return textResult("Hello, %s!", name), nil
			}
			return asking(mcp.InputRequestMap{"user_name": elicit("What is your name?", "name")}, ""), nil
		})
	add("test_input_required_result_sampling", "Asks the model a question (SEP-2322).",
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if text, ok := sampled(req.Params.InputResponses["capital_question"]); ok {
				return textResult("The model answered: %s", text), nil
			}
			return asking(mcp.InputRequestMap{"capital_question": sample("What is the capital of France?", 100)}, ""), nil
		})
	add("test_input_required_result_list_roots", "Asks for the client's roots (SEP-2322).",
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if rs, ok := roots(req.Params.InputResponses["client_roots"]); ok {
				return textResult("The client's roots: %s", strings.Join(rs, ", ")), nil
			}
			return asking(mcp.InputRequestMap{"client_roots": &mcp.ListRootsParams{}}, ""), nil
		})
	add("test_input_required_result_request_state", "Asks for a confirmation and checks the state it gave (SEP-2322).",
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if _, ok := req.Params.InputResponses["confirm"]; ok && req.Params.RequestState != "" {
				st, err := openState(req.Params.RequestState)
				if err != nil {
					return nil, err
				}
				return textResult("state-ok: the request state %q came back intact.", st), nil
			}
			return asking(mcp.InputRequestMap{"confirm": &mcp.ElicitParams{Message: "Please confirm", RequestedSchema: map[string]any{
				"type": "object", "properties": map[string]any{"ok": map[string]any{"type": "boolean"}}, "required": []any{"ok"},
			}}}, sealState("confirm")), nil
		})
	add("test_input_required_result_multiple_inputs", "Asks a name, a greeting and the roots at once (SEP-2322).",
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			in := req.Params.InputResponses
			name, okName := elicited(in["user_name"], "name")
			greeting, okGreeting := sampled(in["greeting"])
			rs, okRoots := roots(in["client_roots"])
			if okName && okGreeting && okRoots && req.Params.RequestState != "" {
				if _, err := openState(req.Params.RequestState); err != nil {
					return nil, err
				}
				return textResult("%s, %s (roots: %s)", greeting, name, strings.Join(rs, ", ")), nil
			}
			return asking(mcp.InputRequestMap{
				"user_name":    elicit("What is your name?", "name"),
				"greeting":     sample("Generate a greeting", 50),
				"client_roots": &mcp.ListRootsParams{},
			}, sealState("multiple")), nil
		})
	add("test_input_required_result_multi_round", "Asks two questions, one round each (SEP-2322).",
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			in := req.Params.InputResponses
			if req.Params.RequestState == "" {
				return asking(mcp.InputRequestMap{"step1": elicit("Step 1: What is your name?", "name")}, sealState("round-1")), nil
			}
			st, err := openState(req.Params.RequestState)
			if err != nil {
				return nil, err
			}
			switch {
			case strings.HasPrefix(st, "round-1"):
				name, ok := elicited(in["step1"], "name")
				if !ok {
					return asking(mcp.InputRequestMap{"step1": elicit("Step 1: What is your name?", "name")}, req.Params.RequestState), nil
				}
				next, _ := json.Marshal(map[string]string{"name": name})
				return asking(mcp.InputRequestMap{"step2": elicit("Step 2: What is your favorite color?", "color")}, sealState("round-2 "+string(next))), nil
			case strings.HasPrefix(st, "round-2 "):
				color, ok := elicited(in["step2"], "color")
				if !ok {
					return asking(mcp.InputRequestMap{"step2": elicit("Step 2: What is your favorite color?", "color")}, req.Params.RequestState), nil
				}
				var prev map[string]string
				_ = json.Unmarshal([]byte(strings.TrimPrefix(st, "round-2 ")), &prev)
				return textResult("%s likes %s.", prev["name"], color), nil
			}
			return nil, badState()
		})
	add("test_input_required_result_tampered_state", "Refuses a request state it did not sign (SEP-2322).",
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if req.Params.RequestState != "" {
				if _, err := openState(req.Params.RequestState); err != nil {
					return nil, err
				}
				return textResult("The request state came back intact."), nil
			}
			return asking(mcp.InputRequestMap{"confirm": elicit("Please confirm", "answer")}, sealState("tamper-check")), nil
		})
	add("test_input_required_result_capabilities", "Asks only for what the client can give (SEP-2322).",
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if len(req.Params.InputResponses) > 0 {
				var keys []string
				for k := range req.Params.InputResponses {
					keys = append(keys, k)
				}
				sort.Strings(keys)
				return textResult("Received: %s", strings.Join(keys, ", ")), nil
			}
			caps := clientCapabilities(req)
			reqs := mcp.InputRequestMap{}
			if caps["elicitation"] {
				reqs["user_name"] = elicit("What is your name?", "name")
			}
			if caps["sampling"] {
				reqs["greeting"] = sample("Generate a greeting", 50)
			}
			if caps["roots"] {
				reqs["client_roots"] = &mcp.ListRootsParams{}
			}
			if len(reqs) == 0 {
				return textResult("The client declared no capability to ask with."), nil
			}
			return asking(reqs, ""), nil
		})
	s.AddPrompt(&mcp.Prompt{Name: "test_input_required_result_prompt", Description: "A prompt that asks for its context (SEP-2322)."},
		func(_ context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
			if c, ok := elicited(req.Params.InputResponses["user_context"], "context"); ok {
				return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "Context: " + c}}}}, nil
			}
			return &mcp.GetPromptResult{InputRequests: mcp.InputRequestMap{"user_context": elicit("What context should the prompt use?", "context")}}, nil
		})
}

// clientCapabilities reads which of elicitation, sampling and roots the
// request's _meta says the client has (2026-07-28), else its session's
// initialize parameters.
func clientCapabilities(req *mcp.CallToolRequest) map[string]bool {
	out := map[string]bool{}
	if raw, ok := req.Params.Meta[mcp.MetaKeyClientCapabilities]; ok {
		if m, ok := raw.(map[string]any); ok {
			for _, k := range []string{"elicitation", "sampling", "roots"} {
				if _, ok := m[k]; ok {
					out[k] = true
				}
			}
			return out
		}
	}
	if ip := req.Session.InitializeParams(); ip != nil && ip.Capabilities != nil {
		out["elicitation"] = ip.Capabilities.Elicitation != nil
		out["sampling"] = ip.Capabilities.Sampling != nil
		out["roots"] = ip.Capabilities.RootsV2 != nil
	}
	return out
}

// addStatelessDiagnostics adds the tools the suite's server-stateless
// scenario (SEP-2575) calls to test what a server does per request.
func addStatelessDiagnostics(s *mcp.Server) {
	noArgs := map[string]any{"type": "object"}
	s.AddTool(&mcp.Tool{Name: "test_missing_capability", Description: "Needs the client's sampling capability (SEP-2575).", InputSchema: noArgs},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if clientCapabilities(req)["sampling"] {
				return textResult("The client declared sampling."), nil
			}
			data, _ := json.Marshal(mcp.MissingRequiredClientCapabilityData{RequiredCapabilities: &mcp.ClientCapabilities{Sampling: &mcp.SamplingCapabilities{}}})
			return nil, &jsonrpc.Error{Code: mcp.CodeMissingRequiredClientCapabilities,
				Message: "this tool needs the client's sampling capability, which the request did not declare", Data: data}
		})
	s.AddTool(&mcp.Tool{Name: "test_streaming_elicitation", Description: "Asks for input the 2026-07-28 way: in its result, not by a request on the stream (SEP-2575).", InputSchema: noArgs},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if name, ok := elicited(req.Params.InputResponses["user_name"], "name"); ok {
				return textResult("Hello, %s!", name), nil
			}
			return asking(mcp.InputRequestMap{"user_name": elicit("What is your name?", "name")}, ""), nil
		})
	s.AddTool(&mcp.Tool{Name: "test_logging_tool", Description: "Logs a record; sent only when the request asked for a log level (SEP-2575).", InputSchema: noArgs},
		func(ctx context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			//lint:ignore SA1019 the scenario checks that logging follows the request's level.
			_ = req.Session.Log(ctx, &mcp.LoggingMessageParams{Level: "info", Logger: "test_logging_tool", Data: "a record"})
			return textResult("Logged a record."), nil
		})
}

// addListTriggers adds the hooks with which the suite changes the tool and
// prompt lists, to see notifications/*/list_changed reach a
// subscriptions/listen stream (2026-07-28): each call adds a placeholder,
// or removes it when it is there.
func addListTriggers(s *mcp.Server) {
	noArgs := map[string]any{"type": "object"}
	var mu sync.Mutex
	toolThere, promptThere := false, false
	s.AddTool(&mcp.Tool{Name: "test_trigger_tool_change", Description: "Adds or removes a placeholder tool.", InputSchema: noArgs},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			mu.Lock()
			defer mu.Unlock()
			if toolThere {
				s.RemoveTools("test_placeholder_tool")
			} else {
				s.AddTool(&mcp.Tool{Name: "test_placeholder_tool", Description: "A placeholder.", InputSchema: noArgs},
					func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
						return textResult("placeholder"), nil
					})
			}
			toolThere = !toolThere
			return textResult("The tool list changed."), nil
		})
	s.AddTool(&mcp.Tool{Name: "test_trigger_prompt_change", Description: "Adds or removes a placeholder prompt.", InputSchema: noArgs},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			mu.Lock()
			defer mu.Unlock()
			if promptThere {
				s.RemovePrompts("test_placeholder_prompt")
			} else {
				s.AddPrompt(&mcp.Prompt{Name: "test_placeholder_prompt", Description: "A placeholder."},
					func(context.Context, *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
						return &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{{Role: "user", Content: &mcp.TextContent{Text: "placeholder"}}}}, nil
					})
			}
			promptThere = !promptThere
			return textResult("The prompt list changed."), nil
		})
}
