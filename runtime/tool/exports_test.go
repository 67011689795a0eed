package tool

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// maxExports bounds the package's exported names (issue "a lean runtime":
// 121 before it, net/http has about 30 types). Raise it only with a reason.
const maxExports = 80

// exported lists every name the package exports, so that a new export is
// a visible choice: add it here, in order, and say in the commit why the
// package needs it.
var exported = []string{
	"AudioPart", "Binding", "Call", "CommandSubject", "Concurrency", "Context", "Cooperative",
	"DecodeInput", "Deferred", "Definition", "Destructive", "Eager", "ErrDuplicate", "ErrNotAllowed",
	"Executor", "ExternallyTerminated", "Failure", "FailureFrom", "FailureWith", "Handler", "Hints", "ImagePart",
	"Input", "Interrupt", "Key", "Loading", "LoggerKey", "Mutating", "New", "NewContext", "NewDynamic",
	"NewExecutor", "NewInput", "NewKey", "NewRegistry", "NonInterruptible", "NormalizeName", "OptParam",
	"Option", "OutputError", "Param", "ParamOr", "Part", "PartKind", "PathSubject", "PermissionFunc", "PostHook",
	"PreHook", "Progress", "ProgressKey", "ReadFiles", "ReadOnly", "Recover", "Registry",
	"ResourceLinkPart", "ResourcePart", "Result", "Safe", "Sequential", "SideEffect", "SubjectField",
	"SubjectKind", "Success", "SuccessParts", "TextPart", "TimeoutError", "Tool", "ToolSource", "ValidateDefinition",
	"WithAllowList", "WithCancelGrace", "WithConcurrency", "WithLogger", "WithMaxResultBytes", "WithMiddleware",
	"WithPermission", "WithPostHook", "WithPreHook", "WithSchemaMode", "WorkDirKey",
}

// TestExportedNames reads the package's source and holds its exported
// package-level names (types, functions, variables, constants; not
// methods or fields) to the list above and to maxExports.
func TestExportedNames(t *testing.T) {
	files, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var got []string
	for _, f := range files {
		name := f.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, name, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.IsExported() {
					got = append(got, d.Name.Name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					switch s := s.(type) {
					case *ast.TypeSpec:
						if s.Name.IsExported() {
							got = append(got, s.Name.Name)
						}
					case *ast.ValueSpec:
						for _, n := range s.Names {
							if n.IsExported() {
								got = append(got, n.Name)
							}
						}
					}
				}
			}
		}
	}
	slices.Sort(got)
	if diff := cmp.Diff(exported, got); diff != "" {
		t.Errorf("exported names (-listed +exported); a new export is a choice: list it here, and keep the package within %d:\n%s", maxExports, diff)
	}
	if len(got) > maxExports {
		t.Errorf("the package exports %d names, more than %d", len(got), maxExports)
	}
}
