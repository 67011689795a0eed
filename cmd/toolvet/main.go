package main

import (
	"golang.org/x/tools/go/analysis/multichecker"

	"github.com/toolgen/toolgen/analyzers"
)

func main() { multichecker.Main(analyzers.All()...) }
