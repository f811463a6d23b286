package analysis

import (
	"math"
	"regexp"
	"testing"

	"rollscope/model/argo"
)

// Argo's own cases for EvaluateResult (utils/evaluate/evaluate_test.go,
// v1.10), kept as data: a measurement's phase from its two conditions.
func TestEvaluateAsArgo(t *testing.T) {
	const invalidRef = "a == true"
	for _, c := range []struct {
		name             string
		success, failure string
		result           any
		phase            argo.AnalysisPhase
		errContains      string
	}{
		{"WithSuccess", "true", "false", true, argo.AnalysisPhaseSuccessful, ""},
		{"WithFailure", "true", "true", true, argo.AnalysisPhaseFailed, ""},
		{"Inconclusive", "false", "false", true, argo.AnalysisPhaseInconclusive, ""},
		{"NoSuccessConditionAndNotFailing", "", "false", true, argo.AnalysisPhaseSuccessful, ""},
		{"NoFailureConditionAndNotSuccessful", "false", "", true, argo.AnalysisPhaseFailed, ""},
		{"NoFailureConditionAndNoSuccessCondition", "", "", true, argo.AnalysisPhaseSuccessful, ""},
		{"WithErrorOnSuccessCondition", invalidRef, "true", true, argo.AnalysisPhaseError, "could not evaluate successCondition"},
		{"WithErrorOnFailureCondition", "true", invalidRef, true, argo.AnalysisPhaseError, "could not evaluate failureCondition"},
		{"ErrorMessageWithNilResult", "result[0] >= 0.95", "", nil, argo.AnalysisPhaseError,
			`could not evaluate successCondition "result[0] >= 0.95": metric result is nil or empty: no data returned from the metric provider`},
		{"ErrorMessageWithEmptySlice", "result[0] >= 0.95", "", []float64{}, argo.AnalysisPhaseError, "metric result is nil or empty"},
		{"ErrorMessageWithInvalidExpression", invalidRef, "", true, argo.AnalysisPhaseError, `could not evaluate successCondition "a == true"`},
		{"ErrorMessageOnFailureCondition", "true", "invalidVar == true", true, argo.AnalysisPhaseError, `could not evaluate failureCondition "invalidVar == true"`},
		// rollscope's own: the error rates its scenarios and tests serve.
		{"a rate under its bound", "result < 0.05", "", 0.01, argo.AnalysisPhaseSuccessful, ""},
		{"a rate over its bound", "result < 0.05", "", 0.09, argo.AnalysisPhaseFailed, ""},
		{"between the two bounds", "result < 0.05", "result > 0.1", 0.07, argo.AnalysisPhaseInconclusive, ""},
	} {
		phase, err := Evaluate(c.result, argo.Metric{SuccessCondition: c.success, FailureCondition: c.failure})
		if phase != c.phase {
			t.Errorf("%s: %s, want %s", c.name, phase, c.phase)
		}
		switch {
		case c.errContains == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.errContains != "" && (err == nil || !regexp.MustCompile(regexp.QuoteMeta(c.errContains)).MatchString(err.Error())):
			t.Errorf("%s: error %v, want one containing %q", c.name, err, c.errContains)
		}
	}
}

// Argo's cases for EvalCondition: the environment a condition runs in.
func TestEvalConditionAsArgo(t *testing.T) {
	var nilFloat *float64
	one := 1.0
	for _, c := range []struct {
		result    any
		condition string
		want      bool
		err       string // a pattern; "" for none
	}{
		{true, "result == true", true, ""},
		{true, "result == false", false, ""},
		{true, "1", false, "^expected bool, but got int$"},
		{true, "invalidVariable", false, "^unknown name invalidVariable$"},
		{map[string]any{"service_apdex": map[string]any{"label": nil, "values": map[string]any{"values": []any{2.0, 2.0}}}},
			"all(result.service_apdex.values.values, {# > 1})", true, ""},
		{[]float64{2, 2}, "2 in result", true, ""},
		{[]float64{2, 0.5}, "any(result, {# < 1})", true, ""},
		{float64(5), "result > 1", true, ""},
		{true, "result.Name() == 'hi'", false, "."},
		{"1.1", "asInt(result) == 1.1", false, "."},
		{"1", "asInt(result) == 1", true, ""},
		{1, "asInt(result) == 1", true, ""},
		{1.123, "asInt(result) == 1", true, ""},
		{"NotANum", "asFloat(result) == 1.1", false, `strconv.ParseFloat: parsing "NotANum": invalid syntax`},
		{"1.1", `asFloat(result) == "1.1"`, false, `invalid operation: == \(mismatched types float64 and string\)`},
		{"1.1", "asFloat(result) == 1.1", true, ""},
		{"1.1", "asFloat(result) >= 1.1", true, ""},
		{"1.1", "asFloat(result) <= 1.1", true, ""},
		{1.1, "asFloat(result) == 1.1", true, ""},
		{1, "asFloat(result) == 1", true, ""},
		{1, "asFloat(result) >= 1", true, ""},
		{math.NaN(), "isNaN(result)", true, ""},
		{math.Inf(1), "isInf(result)", true, ""},
		{nilFloat, "isNil(result)", true, ""},
		{nilFloat, "default(result, 0) == 0", true, ""},
		{nilFloat, "default(result, 2) == 2", true, ""},
		{&one, "default(result, 0) == 1", true, ""},
		{&one, "result == 1", true, ""},
		{1.0, "isNil(result)", false, ""},
	} {
		got, err := EvalCondition(c.result, c.condition)
		if got != c.want {
			t.Errorf("%v %q: %v, want %v", c.result, c.condition, got, c.want)
		}
		switch {
		case c.err == "" && err != nil:
			t.Errorf("%v %q: %v", c.result, c.condition, err)
		case c.err != "" && (err == nil || !regexp.MustCompile(c.err).MatchString(err.Error())):
			t.Errorf("%v %q: error %v, want %s", c.result, c.condition, err, c.err)
		}
	}
}
