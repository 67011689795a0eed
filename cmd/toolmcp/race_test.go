//go:build race

package main

// raceEnabled says the tests run with the race detector, so that the
// toolmcp binary they start is built with it too.
const raceEnabled = true
