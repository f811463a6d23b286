package draw

import (
	"math"
	"regexp"
	"strconv"
	"strings"
)

// sparks are a chart's cell heights, lowest first.
var sparks = []rune("▁▂▃▄▅▆▇█")

// Spark is one measurement as a chart draws it: its value (NaN for an
// error, drawn ×) and the paint of its verdict.
type Spark struct {
	Value float64
	Paint func(...string) string
}

// Chart draws measurements as one row of bars, each in its verdict's
// paint, scaled from 0 (or the lowest value, when below) to the highest
// of the values and the threshold; the threshold, when the condition has
// one, follows after a rule as the bar it would be ("▁▂▆█┊▃"), so a bar
// taller than it is over it at a glance.
func Chart(sparks []Spark, threshold float64, hasThreshold bool, rule func(...string) string) string {
	lo, hi := 0.0, math.Inf(-1)
	for _, s := range sparks {
		if !math.IsNaN(s.Value) {
			lo, hi = math.Min(lo, s.Value), math.Max(hi, s.Value)
		}
	}
	if hasThreshold {
		lo, hi = math.Min(lo, threshold), math.Max(hi, threshold)
	}
	var b strings.Builder
	for _, s := range sparks {
		cell := "×"
		if !math.IsNaN(s.Value) {
			cell = string(level(s.Value, lo, hi))
		}
		b.WriteString(s.Paint(cell))
	}
	if hasThreshold {
		b.WriteString(rule("┊" + string(level(threshold, lo, hi))))
	}
	return b.String()
}

// level is v's bar between lo and hi.
func level(v, lo, hi float64) rune {
	if hi <= lo {
		return sparks[len(sparks)/2]
	}
	i := int(math.Round((v - lo) / (hi - lo) * float64(len(sparks)-1)))
	return sparks[min(max(i, 0), len(sparks)-1)]
}

// threshold is the number a condition compares the result with
// ("result[0] < 0.05", "all(result, # <= 2.5)"): the first one after a
// comparison.
var thresholdIn = regexp.MustCompile(`(?:<=|>=|<|>|==)\s*(-?[0-9]+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?)`)

// Threshold is the number condition holds the result to; false when it
// names none.
func Threshold(condition string) (float64, bool) {
	m := thresholdIn.FindStringSubmatch(condition)
	if m == nil {
		return 0, false
	}
	f, err := strconv.ParseFloat(m[1], 64)
	return f, err == nil
}
