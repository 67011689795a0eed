package indirect

import (
	"context"
	"testing"

	"github.com/toolgen/toolgen/runtime/tool"
)

func TestTool(t *testing.T) {
	var tl tool.Tool = tool.New(tool.Definition{Name: "T"}, nil)
	if tl != nil {
		_ = tl.Execute(context.Background(), tool.Input{}, tool.Context{})
	}
}
