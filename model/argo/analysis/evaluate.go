// Package analysis is how Argo Rollouts' AnalysisRun controller judges
// measurements (Argo v1.10's analysis/analysis.go and utils/evaluate):
// a value against a metric's successCondition and failureCondition, a
// metric from its measurements and limits, a run from its metrics, and
// when the next measurement is due. It is pure: the embedded cluster's
// controller takes the measurements and keeps the clock.
package analysis

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"

	"github.com/expr-lang/expr"
	"github.com/expr-lang/expr/file"

	"rollscope/model/argo"
)

// Evaluate is a measurement's phase for value result under metric m, as
// Argo's EvaluateResult decides it: neither condition set, Successful;
// only one set, the other is its negation; both set and neither met,
// Inconclusive. A condition that does not evaluate is an Error, with
// Argo's message.
func Evaluate(result any, m argo.Metric) (argo.AnalysisPhase, error) {
	var success, failure bool
	var err error
	if m.SuccessCondition != "" {
		if success, err = EvalCondition(result, m.SuccessCondition); err != nil {
			return argo.AnalysisPhaseError, evalError(err, "successCondition", m.SuccessCondition, result)
		}
	}
	if m.FailureCondition != "" {
		if failure, err = EvalCondition(result, m.FailureCondition); err != nil {
			return argo.AnalysisPhaseError, evalError(err, "failureCondition", m.FailureCondition, result)
		}
	}
	switch {
	case m.SuccessCondition == "" && m.FailureCondition == "":
		return argo.AnalysisPhaseSuccessful, nil
	case m.FailureCondition == "":
		failure = !success
	case m.SuccessCondition == "":
		success = !failure
	}
	switch {
	case failure:
		return argo.AnalysisPhaseFailed, nil
	case !success:
		return argo.AnalysisPhaseInconclusive, nil
	}
	return argo.AnalysisPhaseSuccessful, nil
}

// evalError says which condition did not evaluate, and that the provider
// returned nothing when that is why.
func evalError(err error, which, expression string, result any) error {
	if isNilOrEmpty(result) {
		return fmt.Errorf("could not evaluate %s \"%s\": metric result is nil or empty: no data returned from the metric provider", which, expression)
	}
	return fmt.Errorf("could not evaluate %s \"%s\": %w", which, expression, err)
}

func isNilOrEmpty(result any) bool {
	if isNil(result) {
		return true
	}
	v := reflect.ValueOf(result)
	switch v.Kind() {
	case reflect.Slice, reflect.Array:
		return v.Len() == 0
	}
	return false
}

// EvalCondition is condition's truth for resultValue, in the environment
// Argo gives a condition: result, asInt, asFloat, isNaN, isInf, isNil and
// default (expr's own builtins, all and any among them, come with expr).
func EvalCondition(resultValue any, condition string) (bool, error) {
	env := map[string]any{
		"result":  valueFromPointer(resultValue),
		"asInt":   asInt,
		"asFloat": asFloat,
		"isNaN":   math.IsNaN,
		"isInf":   func(f float64) bool { return math.IsInf(f, 0) },
		"isNil":   func(any) bool { return isNil(resultValue) },
		"default": func(_, dflt any) any {
			if isNil(resultValue) {
				return dflt
			}
			return valueFromPointer(resultValue)
		},
	}
	program, err := expr.Compile(condition, expr.Env(env))
	if err != nil {
		return false, unwrapFileErr(err)
	}
	output, err := expr.Run(program, env)
	if err != nil {
		return false, unwrapFileErr(err)
	}
	if b, ok := output.(bool); ok {
		return b, nil
	}
	return false, fmt.Errorf("expected bool, but got %T", output)
}

// unwrapFileErr drops expr's source excerpt from a compile error, as
// Argo's messages do.
func unwrapFileErr(err error) error {
	var fe *file.Error
	if errors.As(err, &fe) {
		return errors.New(fe.Message)
	}
	return err
}

func asInt(in any) int64 {
	switch i := in.(type) {
	case float64:
		return int64(i)
	case float32:
		return int64(i)
	case int64:
		return i
	case int32:
		return int64(i)
	case int16:
		return int64(i)
	case int8:
		return int64(i)
	case int:
		return int64(i)
	case uint64:
		return int64(i)
	case uint32:
		return int64(i)
	case uint16:
		return int64(i)
	case uint8:
		return int64(i)
	case uint:
		return int64(i)
	case string:
		v, err := strconv.ParseInt(i, 10, 64)
		if err == nil {
			return v
		}
		panic(err) // expr turns a panic into the condition's error, as in Argo
	}
	panic(fmt.Sprintf("asInt() not supported on %v %v", reflect.TypeOf(in), in))
}

func asFloat(in any) float64 {
	switch i := in.(type) {
	case float64:
		return i
	case float32:
		return float64(i)
	case int64:
		return float64(i)
	case int32:
		return float64(i)
	case int16:
		return float64(i)
	case int8:
		return float64(i)
	case int:
		return float64(i)
	case uint64:
		return float64(i)
	case uint32:
		return float64(i)
	case uint16:
		return float64(i)
	case uint8:
		return float64(i)
	case uint:
		return float64(i)
	case string:
		v, err := strconv.ParseFloat(i, 64)
		if err == nil {
			return v
		}
		panic(err)
	}
	panic(fmt.Sprintf("asFloat() not supported on %v %v", reflect.TypeOf(in), in))
}

func isNil(in any) bool {
	if in == nil {
		return true
	}
	switch reflect.TypeOf(in).Kind() {
	case reflect.Ptr, reflect.Map, reflect.Array, reflect.Chan, reflect.Slice:
		return reflect.ValueOf(in).IsNil()
	}
	return false
}

func valueFromPointer(in any) any {
	if isNil(in) {
		return nil
	}
	if reflect.TypeOf(in).Kind() != reflect.Ptr {
		return in
	}
	return reflect.ValueOf(in).Elem().Interface()
}
