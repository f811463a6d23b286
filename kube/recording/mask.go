package recording

import (
	"bytes"
	"encoding/json"
)

// masked is what an environment variable's value reads in a recording
// made without --record-env.
const masked = "***"

// maskEnv replaces the value of every environment variable in obj (an
// object's JSON: a pod, a template, a ControllerRevision's data) with
// masked. Objects with no env list are returned as they are, unread.
func maskEnv(obj []byte) []byte {
	if !bytes.Contains(obj, []byte(`"env":`)) {
		return obj
	}
	var v any
	if json.Unmarshal(obj, &v) != nil {
		return obj
	}
	maskIn(v)
	out, err := json.Marshal(v)
	if err != nil {
		return obj
	}
	return out
}

func maskIn(v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, x := range v {
			if list, ok := x.([]any); ok && k == "env" {
				for _, e := range list {
					if e, ok := e.(map[string]any); ok {
						if _, has := e["value"]; has {
							e["value"] = masked
						}
					}
				}
				continue
			}
			maskIn(x)
		}
	case []any:
		for _, x := range v {
			maskIn(x)
		}
	}
}
