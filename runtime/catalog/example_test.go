package catalog_test

import (
	"context"
	"fmt"

	"github.com/toolgen/toolgen/runtime/catalog"
	"github.com/toolgen/toolgen/runtime/tool"
)

func Example() {
	run := func(context.Context, tool.Input, tool.Context) tool.Result { return tool.Success("done") }
	cat := catalog.New()
	_ = cat.Register(tool.New(tool.Definition{Name: "Read", Description: "Reads a file."}, run))
	_ = cat.RegisterAs(tool.New(tool.Definition{
		Name:        "slack_send_message",
		Description: "Sends a message to a Slack channel.",
	}, run), tool.Deferred)

	// One view per run; the executor and the ToolSearch tool share it.
	view := cat.NewRun()
	exec := tool.NewExecutor(view)
	tc := tool.NewContext(catalog.ViewKey.Bind(view))
	fmt.Println(len(exec.Definitions()), "tool offered")

	out, _ := catalog.ToolSearch(tc, "send a slack message", catalog.DefaultMaxResults, nil)
	fmt.Println(out)
	fmt.Println(len(exec.Definitions()), "tools offered")
	// Output:
	// 1 tool offered
	// {"functions": [{"name":"slack_send_message","description":"Sends a message to a Slack channel.","parameters":{"properties":{},"type":"object"}}]}
	// 2 tools offered
}
