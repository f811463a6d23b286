package draw

import (
	"math"
	"testing"
)

func plainPaint(s ...string) string { return s[0] }

// The chart an operator reads beside a metric: bars scaled with the
// threshold, an error as ×, and the threshold's own bar after the rule, so
// that a bar taller than it is over it.
func TestChart(t *testing.T) {
	sp := func(vs ...float64) []Spark {
		var out []Spark
		for _, v := range vs {
			out = append(out, Spark{Value: v, Paint: plainPaint})
		}
		return out
	}
	cases := []struct {
		name      string
		sparks    []Spark
		threshold float64
		has       bool
		want      string
	}{
		{"climbing past the threshold", sp(0.01, 0.03, 0.07, 0.12), 0.05, true, "▂▃▅█┊▄"},
		{"all under it", sp(0.01, 0.01), 0.05, true, "▂▂┊█"},
		{"an error among them", sp(0.01, math.NaN(), 0.02), 0.04, true, "▃×▅┊█"},
		{"no threshold", sp(1, 2), 0, false, "▅█"},
		{"nothing measured", nil, 0.05, true, "┊█"},
	}
	for _, c := range cases {
		if got := Chart(c.sparks, c.threshold, c.has, plainPaint); got != c.want {
			t.Errorf("%s: Chart = %q, want %q", c.name, got, c.want)
		}
	}
}

func TestThreshold(t *testing.T) {
	for cond, want := range map[string]float64{"result < 0.05": 0.05, "result[0] >= 2.5": 2.5, "all(result, # <= 1e-3)": 0.001, "len(result) == 0": 0} {
		if got, ok := Threshold(cond); !ok || got != want {
			t.Errorf("Threshold(%q) = %v %v, want %v", cond, got, ok, want)
		}
	}
	if _, ok := Threshold("result.ok"); ok {
		t.Error("a condition with no comparison has a threshold")
	}
}

func BenchmarkChart(b *testing.B) {
	s := make([]Spark, 10)
	for i := range s {
		s[i] = Spark{Value: float64(i) / 100, Paint: plainPaint}
	}
	b.ReportAllocs()
	for b.Loop() {
		Chart(s, 0.05, true, plainPaint)
	}
}
