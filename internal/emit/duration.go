package emit

import (
	"time"

	"github.com/dave/jennifer/jen"
)

// duration spells d as a reader writes it: 30 * time.Second, 90 *
// time.Second, 500 * time.Millisecond, in the largest unit that divides it.
func (g *gen) duration(d time.Duration) *jen.Statement {
	units := []struct {
		name string
		d    time.Duration
	}{{"Hour", time.Hour}, {"Minute", time.Minute}, {"Second", time.Second}, {"Millisecond", time.Millisecond}, {"Microsecond", time.Microsecond}}
	for _, u := range units {
		if d%u.d == 0 {
			n := int64(d / u.d)
			if n == 1 {
				return g.qual(timePkg, u.name)
			}
			return jen.Lit(int(n)).Op("*").Add(g.qual(timePkg, u.name))
		}
	}
	return g.qual(timePkg, "Duration").Call(jen.Lit(int(d)))
}
