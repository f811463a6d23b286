package scenario

import (
	"math"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// duration reads a Go duration such as "90s" or "1m30s"; it must not be negative.
func (p *parser) duration(n *yaml.Node, where string) (time.Duration, error) {
	n = resolve(n)
	if n == nil || n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return 0, p.errorf(n, "%s must be a duration like \"90s\" or \"1m30s\", got %s", where, describe(n))
	}
	if n.Tag == "!!int" && n.Value == "0" {
		return 0, nil // zero needs no unit, as in Go
	}
	if n.Tag == "!!int" || n.Tag == "!!float" {
		return 0, p.errorf(n, "%s %q has no unit (write it like \"%ss\")", where, n.Value, n.Value)
	}
	d, err := time.ParseDuration(n.Value)
	if err != nil {
		return 0, p.errorf(n, "%s %q is not a duration (write it like \"90s\" or \"1m30s\")", where, n.Value)
	}
	if d < 0 {
		return 0, p.errorf(n, "%s %q is negative (durations count forward from the start)", where, n.Value)
	}
	return d, nil
}

// quantity reads a Kubernetes resource quantity such as "8", "500m" or "32Gi".
func (p *parser) quantity(n *yaml.Node, where string) (resource.Quantity, error) {
	n = resolve(n)
	if n == nil || n.Kind != yaml.ScalarNode || n.Tag == "!!null" {
		return resource.Quantity{}, p.errorf(n, "%s must be a quantity like \"8\", \"500m\" or \"32Gi\", got %s", where, describe(n))
	}
	q, err := resource.ParseQuantity(n.Value)
	if err != nil {
		return resource.Quantity{}, p.errorf(n, "%s %q is not a quantity (write it like \"8\", \"500m\" or \"32Gi\")", where, n.Value)
	}
	if q.Sign() < 0 {
		return resource.Quantity{}, p.errorf(n, "%s %q is negative (capacities are zero or more)", where, n.Value)
	}
	return q, nil
}

// intOrPercent reads a count or a percentage such as 1 or "25%", as rolling
// update budgets are written. maxPercent < 0 means no upper bound.
func (p *parser) intOrPercent(n *yaml.Node, where string, maxPercent int) (*intstr.IntOrString, error) {
	n = resolve(n)
	if n == nil || n.Kind != yaml.ScalarNode {
		return nil, p.errorf(n, "%s must be a whole number or a percentage like \"25%%\", got %s", where, describe(n))
	}
	if n.Tag == "!!int" {
		v, err := p.integer(n, where)
		if err != nil {
			return nil, err
		}
		if v < 0 || v > math.MaxInt32 {
			return nil, p.errorf(n, "%s %d is out of range (use 0 or more)", where, v)
		}
		x := intstr.FromInt32(int32(v))
		return &x, nil
	}
	digits, ok := strings.CutSuffix(n.Value, "%")
	pct, err := strconv.Atoi(digits)
	if !ok || err != nil || digits == "" || digits[0] == '+' || digits[0] == '-' {
		return nil, p.errorf(n, "%s must be a whole number or a percentage like \"25%%\", got %q", where, n.Value)
	}
	if maxPercent >= 0 && pct > maxPercent {
		return nil, p.errorf(n, "%s %q is more than %d%% of the group (write a percentage from 0%% to %d%%, or a node count like 2)", where, n.Value, maxPercent, maxPercent)
	}
	x := intstr.FromString(n.Value)
	return &x, nil
}
