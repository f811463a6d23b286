package analysis

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"rollscope/model/argo"
)

var argTag = regexp.MustCompile(`\{\{([^}]*)\}\}`)

// ResolveMetricArgs is m with every {{args.NAME}} replaced by its
// argument's value, quoted for JSON, as Argo's ResolveMetricArgs does; an
// argument without a value, or a tag no argument answers, is an error in
// Argo's words.
func ResolveMetricArgs(m argo.Metric, args []argo.AnalysisRunArgument) (argo.Metric, error) {
	values := map[string]string{}
	for _, a := range args {
		if a.Value == "" && a.ValueFrom == nil {
			return m, fmt.Errorf("argument \"%s\" was not supplied", a.Name)
		}
		q := strconv.Quote(a.Value)
		values["args."+a.Name] = q[1 : len(q)-1]
	}
	b, err := json.Marshal(m)
	if err != nil {
		return m, err
	}
	var unresolved error
	s := argTag.ReplaceAllStringFunc(string(b), func(tag string) string {
		inner := tag[2 : len(tag)-2]
		if v, ok := values[strings.TrimSpace(inner)]; ok {
			return v
		}
		unresolved = fmt.Errorf("failed to resolve {{%s}}", inner)
		return ""
	})
	if unresolved != nil {
		return m, unresolved
	}
	var out argo.Metric
	err = json.Unmarshal([]byte(s), &out)
	return out, err
}
