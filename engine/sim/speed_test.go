package sim_test

import (
	"math"
	"strings"
	"testing"

	"rollscope/engine/sim"
)

// --speed is refused outside (0, sim.MaxSpeed], NaN included, in one line
// naming the bound.
func TestCheckSpeed(t *testing.T) {
	for _, tc := range []struct {
		speed float64
		want  string
	}{
		{0.125, ""}, {1, ""}, {10, ""}, {sim.MaxSpeed, ""},
		{0, "must be more than 0"}, {-1, "must be more than 0"}, {math.NaN(), "must be more than 0"},
		{sim.MaxSpeed + 1, "--speed 1001 is above 1000"}, {1e9, "--speed 1e+09 is above 1000"}, {math.Inf(1), "is above 1000"},
	} {
		err := sim.CheckSpeed(tc.speed)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("CheckSpeed(%v) = %v, want %q", tc.speed, err, tc.want)
		}
	}
}
