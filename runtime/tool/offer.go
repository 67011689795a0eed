package tool

import "github.com/toolgen/toolgen/runtime/permission"

// Offers reports whether the executor's allow-list offers the named tool:
// the name is on the list and, when the tool is known, its side effect is
// within the list's ceiling. Without an allow-list every tool is offered.
func (e *Executor) Offers(name string) bool {
	if !e.hasAllow {
		return true
	}
	name = NormalizeName(name)
	if !e.allow.Offers(name) {
		return false
	}
	t, ok := e.find(name)
	if !ok {
		return true
	}
	ceiling := e.allow.Ceiling()
	return ceiling == permission.Unknown || SideEffectOf(t) <= ceiling
}
