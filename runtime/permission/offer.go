package permission

import (
	"fmt"
	"strings"
)

// ToolSearch is the name of the tool that finds deferred tools. Deferred
// tools reach the model only through it.
const ToolSearch = "ToolSearch"

// Descriptor describes one available tool for Offered: its normalised
// name, its side-effect level and whether the catalog defers it.
type Descriptor struct {
	Name     string
	Level    SideEffect
	Deferred bool
}

// Offering is the set of tools a list offers out of the available ones.
type Offering struct {
	// Eager are the names whose definitions go to the model now, in the
	// order the descriptors were given.
	Eager []string
	// Deferred are the names the model may find with ToolSearch.
	Deferred []string
	// Warnings say, for the operator's log, why the offer is empty or
	// smaller than the list suggests: names the list gives that no tool
	// has, listed tools above the ceiling, deferred tools without
	// ToolSearch. The executor logs each at WARN.
	Warnings []string
}

// Empty reports whether no tool is offered at all.
func (o Offering) Empty() bool { return len(o.Eager) == 0 && len(o.Deferred) == 0 }

// Has reports whether the named tool is offered, eager or deferred.
func (o Offering) Has(name string) bool {
	for _, s := range [][]string{o.Eager, o.Deferred} {
		for _, n := range s {
			if n == name {
				return true
			}
		}
	}
	return false
}

// Offered computes which of the available tools the list offers: those it
// names (every tool for the zero List) whose side-effect level is within
// its ceiling. Call it when a run starts (and again when the available
// tools change), send the Eager definitions, and log the Warnings.
func (l List) Offered(tools []Descriptor) Offering {
	var o Offering
	present := make(map[string]bool, len(tools))
	var above []string
	for _, d := range tools {
		present[d.Name] = true
		if !l.Offers(d.Name) {
			continue
		}
		if !d.Level.within(l.ceiling) {
			above = append(above, fmt.Sprintf("%s (%s)", d.Name, d.Level))
			continue
		}
		if d.Deferred {
			o.Deferred = append(o.Deferred, d.Name)
		} else {
			o.Eager = append(o.Eager, d.Name)
		}
	}
	var unknown []string
	if l.restricted {
		for _, n := range l.order {
			if !present[n] {
				unknown = append(unknown, n)
			}
		}
	}
	if len(unknown) > 0 {
		o.Warnings = append(o.Warnings, "the allow-list names tools that are not available (names are case-sensitive): "+strings.Join(unknown, ", "))
	}
	if len(above) > 0 && (l.restricted || o.Empty()) {
		o.Warnings = append(o.Warnings, fmt.Sprintf("tools above the side-effect ceiling (%s) are left out: %s", l.ceiling, strings.Join(above, ", ")))
	}
	search := false
	for _, n := range o.Eager {
		search = search || n == ToolSearch
	}
	if len(o.Deferred) > 0 && !search {
		o.Warnings = append(o.Warnings, fmt.Sprintf("deferred tools are allowed but %s is not offered, so they can never be found: %s", ToolSearch, strings.Join(o.Deferred, ", ")))
	}
	if len(o.Eager) == 0 {
		var why string
		switch {
		case len(tools) == 0:
			why = "no tool is available"
		case len(o.Deferred) > 0:
			why = "only deferred tools are allowed and " + ToolSearch + " is not offered"
		case len(above) > 0:
			why = fmt.Sprintf("every allowed tool is above the side-effect ceiling (%s)", l.ceiling)
		case l.restricted && len(l.order) == 0:
			why = "the allow-list is empty"
		default:
			why = "the allow-list names no available tool"
		}
		o.Warnings = append(o.Warnings, "no tool is offered to the model: "+why)
	}
	return o
}
