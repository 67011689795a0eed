// Command customrule shows a tool that judges its own allow-list patterns:
// a Fetch tool whose entries read "Fetch(action:value)", as in
//
//	Fetch(domain:example.com)          the host example.com or any subdomain of it
//	Fetch(url:https://go.dev/doc/*)    a URL, exactly, or by prefix with a trailing *
//
// The permission system cannot read such patterns itself (they are neither a
// command nor a path), so the tool's Definition carries a rule
// (tool.Definition.Rule) and the executor asks it about every pattern
// configured for the tool. Anything the rule cannot
// read denies: fail closed. The tool does not touch the network; it says what
// it would fetch.
//
// Run it with `go run ./examples/customrule`.
package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/url"
	"os"
	"strings"

	"github.com/toolgen/toolgen/runtime/permission"
	"github.com/toolgen/toolgen/runtime/schema"
	"github.com/toolgen/toolgen/runtime/tool"
)

func main() {
	if err := run(os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "customrule:", err)
		os.Exit(1)
	}
}

// fetchTool is a hand-written tool with a custom permission rule.
func fetchTool() tool.Tool {
	return tool.New(tool.Definition{
		Name:        "Fetch",
		Description: "Fetches a web page by URL (http or https) and returns its text.",
		InputSchema: map[string]any{
			"type": "object",
			"properties": map[string]any{
				"url": map[string]any{"type": "string", "description": "The absolute http or https URL to fetch."},
			},
			"required":             []any{"url"},
			"additionalProperties": false,
		},
		Rule:        fetchRule,
		Concurrency: tool.Safe,
		SideEffect:  tool.ReadOnly,
	}, func(ctx context.Context, in tool.Input, tc tool.Context) tool.Result {
		raw, err := tool.Param[string](in, "url")
		if err != nil {
			return tool.FailureFrom(err)
		}
		u, why := webURL(raw)
		if u == nil {
			return tool.Failure(why)
		}
		return tool.Success("Would fetch GET " + u.String() + " (this example has no network).")
	})
}

// fetchRule reports whether the call matches one allow-list pattern of the
// Fetch tool, "domain:HOST" or "url:URL". An unknown action, a pattern or a
// URL it cannot read never matches.
func fetchRule(pattern string, in tool.Input, _ tool.Context) bool {
	raw, err := tool.Param[string](in, "url")
	if err != nil {
		return false
	}
	u, _ := webURL(raw)
	if u == nil {
		return false
	}
	action, value, ok := strings.Cut(pattern, ":")
	if !ok || value == "" {
		return false
	}
	switch action {
	case "domain":
		host, domain := u.Hostname(), strings.ToLower(value)
		return host == domain || strings.HasSuffix(host, "."+domain)
	case "url":
		if prefix, ok := strings.CutSuffix(value, "*"); ok {
			return strings.HasPrefix(u.String(), prefix)
		}
		return u.String() == value
	}
	return false
}

// webURL reads an absolute http or https URL, refusing what could make one
// host look like another (user information: https://example.com@evil.test/).
// The host is lower-cased and the path's dot segments removed. When the URL is refused, why is a sentence for
// the model.
func webURL(raw string) (u *url.URL, why string) {
	u, err := url.Parse(strings.TrimSpace(raw))
	switch {
	case err != nil:
		return nil, fmt.Sprintf("The URL %q cannot be read.", raw)
	case u.Scheme != "http" && u.Scheme != "https":
		return nil, fmt.Sprintf("Only http and https URLs can be fetched, not %q.", raw)
	case u.Hostname() == "":
		return nil, fmt.Sprintf("The URL %q has no host.", raw)
	case u.User != nil:
		return nil, fmt.Sprintf("The URL %q carries user information, which Fetch does not send.", raw)
	}
	u.Host = strings.ToLower(u.Host)
	// Remove dot segments, so that https://go.dev/doc/../dl/ is judged as
	// the https://go.dev/dl/ it fetches.
	return u.ResolveReference(&url.URL{}), ""
}

func run(w io.Writer) error {
	reg := tool.NewRegistry()
	if err := reg.Register(fetchTool()); err != nil {
		return err
	}
	entries := []string{"Fetch(domain:example.com)", "Fetch(url:https://go.dev/doc/*)"}
	allow, err := permission.Parse(entries...)
	if err != nil {
		return err
	}
	exec := tool.NewExecutor(reg,
		tool.WithAllowList(allow),
		tool.WithSchemaMode(schema.Enforce),
		tool.WithLogger(slog.New(slog.DiscardHandler))) // the output below is what the model sees

	fmt.Fprintf(w, "allow-list: %s\n\n", strings.Join(entries, ", "))
	urls := []struct{ title, url string }{
		{"the domain itself", "https://example.com/index.html"},
		{"a subdomain", "http://api.example.com/v1/items?page=2"},
		{"a host that only starts like it", "https://example.com.evil.test/"},
		{"a lookalike domain", "https://notexample.com/"},
		{"user information posing as the host", "https://example.com@evil.test/"},
		{"a URL under the url: prefix", "https://go.dev/doc/effective_go"},
		{"the same host, outside the prefix", "https://go.dev/dl/"},
		{"another scheme", "ftp://example.com/file.txt"},
	}
	ctx := context.Background()
	for i, c := range urls {
		call := tool.Call{ID: fmt.Sprint("call_", i+1), Name: "Fetch", Input: tool.NewInput(map[string]any{"url": c.url})}
		show(w, i+1, c.title, call, exec.Execute(ctx, call, tool.NewContext()))
	}
	// The permission check comes before the schema: a call the rule cannot
	// judge is denied, whatever else is wrong with it.
	call := tool.Call{ID: "call_9", Name: "Fetch", Input: tool.NewInput(map[string]any{"link": "https://example.com/"})}
	show(w, len(urls)+1, "no url to judge", call, exec.Execute(ctx, call, tool.NewContext()))
	return nil
}

func show(w io.Writer, n int, title string, call tool.Call, res tool.Result) {
	status := "allowed"
	if res.IsError {
		status = "denied"
		if !strings.Contains(res.Content, "not allowed") {
			status = "allowed, then failed"
		}
	}
	args, _ := call.Input.MarshalJSON()
	fmt.Fprintf(w, "%d. %s: %s %s\n   -> [%s] %s\n", n, title, call.Name, args, status, res.Content)
}
