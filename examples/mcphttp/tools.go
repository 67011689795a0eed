package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/toolgen/toolgen/runtime/tool"
)

//go:generate go run github.com/toolgen/toolgen/cmd/toolgen

// GreetInput is the input of the Greet tool, offered from the start.
//
//tool:name Greet
//tool:description Greets a person by name.
//tool:concurrency safe
//tool:side-effect read-only
type GreetInput struct {
	// Who to greet.
	Name string `json:"name" tool:"required,minlen=1,maxlen=40"`
}

// ForecastInput is the input of the Forecast tool, deferred: offered once
// ToolSearch finds it, so that its schema costs no tokens until needed.
//
//tool:name Forecast
//tool:description Tells tomorrow's weather forecast for a city.
//tool:concurrency safe
//tool:side-effect read-only
//tool:loading deferred
//tool:keywords weather, rain, temperature
type ForecastInput struct {
	// The city, such as Lisbon.
	City string `json:"city" tool:"required,minlen=1"`
}

// ResetInput is the input of the Reset tool, which the example's
// allow-list leaves out: it is never listed, found or run.
//
//tool:name Reset
//tool:description Forgets every greeting.
//tool:side-effect destructive
type ResetInput struct{}

func greet(_ context.Context, in GreetInput, _ tool.Context) (string, error) {
	return "Hello, " + in.Name + "!", nil
}

func forecast(_ context.Context, in ForecastInput, _ tool.Context) (string, error) {
	return fmt.Sprintf("Tomorrow in %s: sunny, 24°C.", strings.TrimSpace(in.City)), nil
}

func reset(context.Context, ResetInput, tool.Context) (string, error) { return "done", nil }
