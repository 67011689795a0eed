//go:build race

package builtin

func raceEnabled() bool { return true }
