package scenario_test

import (
	"testing"

	"rollscope/engine/scenario"
)

// BenchmarkParseFrontend measures parsing a typical scenario, which is what
// `rollscope simulate` and the console pay at start.
func BenchmarkParseFrontend(b *testing.B) {
	src, _ := scenario.BuiltinSource("frontend")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := scenario.Parse("frontend.yaml", src); err != nil {
			b.Fatal(err)
		}
	}
}
