package argo

import "fmt"

// shopRollout is the Rollout the fidelity tests run on both controllers:
// rollout/shop, its pods labelled app: shop, one container app on
// registry.example/shop:v1, with replicas pods and strategy — the lines
// under spec.strategy, indented four spaces.
func shopRollout(replicas int, strategy string) string {
	return fmt.Sprintf(`apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata: {name: shop}
spec:
  replicas: %d
  selector: {matchLabels: {app: shop}}
  template:
    metadata: {labels: {app: shop}}
    spec: {containers: [{name: app, image: "registry.example/shop:v1"}]}
  strategy:
%s`, replicas, strategy)
}
