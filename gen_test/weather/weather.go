// Package weather is a fixture: a tool that describes itself to hosts
// (//tool:title, //tool:open-world) and declares its output type.
package weather

//go:generate go run github.com/toolgen/toolgen/cmd/toolgen

// ForecastInput is the input of the Forecast tool.
//
//tool:name Forecast
//tool:title Weather forecast
//tool:description Forecasts the weather of a city.
//tool:side-effect read-only
//tool:concurrency safe
//tool:open-world
//tool:output Forecast
type ForecastInput struct {
	// The city.
	City string `json:"city" tool:"required"`
}

// Forecast is what the Forecast tool returns.
type Forecast struct {
	// The city the forecast is for.
	City string `json:"city" tool:"required"`
	// The temperature in degrees Celsius.
	TempC float64 `json:"temp_c" tool:"required"`
	// Warnings in force, if any.
	Warnings []string `json:"warnings,omitempty"`
}
