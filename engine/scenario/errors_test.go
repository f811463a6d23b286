package scenario_test

import (
	"errors"
	"strings"
	"testing"

	"rollscope/engine/scenario"
)

// workload is a valid scenario head of 26 lines; action cases append to it,
// so their first action entry is on line 27.
const workload = `name: t
nodeGroups:
  - {name: nodes, size: 6}
  - {name: spare, size: 1}
objects: |
  apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web}
  spec:
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec:
        containers:
          - {name: app, image: "nginx:1.27"}
          - {name: sidecar, image: "envoyproxy/envoy:v1.30"}
  ---
  apiVersion: v1
  kind: ReplicationController
  metadata: {name: legacy}
  spec:
    replicas: 2
    template:
      metadata: {labels: {app: legacy}}
      spec: {containers: [{name: app, image: "nginx:1.27"}]}
actions:
`

// TestParseRejectsMistakesWithTheirLine checks the exact one-line message a
// user sees for each kind of mistake, including the line it points at.
func TestParseRejectsMistakesWithTheirLine(t *testing.T) {
	cases := []struct {
		name, src, want string
	}{
		{"empty file", "", `t.yaml: the file is empty (start from a built-in: rollscope scenarios show frontend)`},
		{"comments only", "# nothing yet\n", `t.yaml: the file is empty (start from a built-in: rollscope scenarios show frontend)`},
		{"not a mapping", "- a\n- b\n", `t.yaml:1: the scenario must be a mapping of name, seed, namespace, nodeGroups, images, objects, metrics, actions, clusters (write it as key: value lines)`},
		{"unknown top-level key", "name: x\nnodegroups: []\n",
			`t.yaml:2: unknown key "nodegroups" in the scenario (known: name, seed, namespace, nodeGroups, images, objects, metrics, actions, clusters)`},
		{"repeated top-level key", "name: a\nseed: 1\nname: b\n", `t.yaml:3: duplicate key "name" in the scenario (first set on line 1; keep one)`},
		{"second document", "name: a\n---\nname: b\n", `t.yaml:3: a second YAML document starts here (a scenario is one document; put manifests in the objects: | block)`},
		{"syntax error inside a list", "name: a\nnodeGroups:\n  - name: x\n   size: 3\n",
			`t.yaml:4: invalid YAML: did not find expected '-' indicator (check indentation, quoting and colons)`},
		{"tab indentation", "name: a\nseed: 1\n\tnamespace: x\n",
			`t.yaml:3: invalid YAML: found a tab character that violates indentation (check indentation, quoting and colons)`},
		{"syntax error the parser does not place", "name: a\nseed: 1\nnamespace: b: c\n",
			`t.yaml:3: invalid YAML: mapping values are not allowed in this context (check indentation, quoting and colons)`},
		{"reserved character", "name: a\nseed: 1\nnamespace: @b\n",
			`t.yaml:3: invalid YAML: found character that cannot start any token (check indentation, quoting and colons)`},
		{"seed not a number", "seed: one\n", `t.yaml:1: seed must be a whole number, got "one"`},
		{"bad namespace", "namespace: Prod\n", `t.yaml:1: namespace "Prod" is not a valid namespace name: a lowercase RFC 1123 label must consist of lower case alphanumeric characters or '-', and must start and end with an alphanumeric character (e.g. 'my-name',  or '123-abc', regex used for validation is '[a-z0-9]([-a-z0-9]*[a-z0-9])?')`},

		{"unknown node group key", "nodeGroups:\n  - name: nodes\n    replica: 3\n",
			`t.yaml:3: unknown key "replica" in nodeGroups[0] (known: name, role, size, capacity, maxSurge, maxUnavailable, spec, initialSpec, bootTime, taints, labels)`},
		{"node group without name", "nodeGroups:\n  - {size: 3}\n", `t.yaml:2: nodeGroups[0] has no name (add name: nodes)`},
		{"negative size", "nodeGroups:\n  - {name: nodes, size: -1}\n", `t.yaml:2: nodeGroups[0].size -1 is out of range (use 0 to 5000 nodes)`},
		{"size not a number", "nodeGroups:\n  - {name: nodes, size: six}\n", `t.yaml:2: nodeGroups[0].size must be a whole number, got "six"`},
		{"duplicate group", "nodeGroups:\n  - {name: nodes, size: 1}\n  - name: nodes\n",
			`t.yaml:3: duplicate node group name "nodes" in nodeGroups[1] (first declared on line 2; group names must be unique)`},
		{"unknown role", "nodeGroups:\n  - {name: nodes, role: Worker}\n",
			`t.yaml:2: nodeGroups[0].role "Worker" is not a kops role (use one of: Node, Master, ControlPlane, APIServer, Bastion)`},
		{"bad quantity", "nodeGroups:\n  - name: nodes\n    capacity:\n      cpu: 8 cores\n",
			`t.yaml:4: nodeGroups[0].capacity.cpu "8 cores" is not a quantity (write it like "8", "500m" or "32Gi")`},
		{"negative quantity", "nodeGroups:\n  - name: nodes\n    capacity: {memory: -1Gi}\n",
			`t.yaml:3: nodeGroups[0].capacity.memory "-1Gi" is negative (capacities are zero or more)`},
		{"unknown capacity", "nodeGroups:\n  - name: nodes\n    capacity: {gpu: 1}\n",
			`t.yaml:3: unknown key "gpu" in nodeGroups[0].capacity (known: pods, cpu, memory, ephemeral-storage)`},
		{"maxSurge not int or percent", "nodeGroups:\n  - {name: nodes, maxSurge: lots}\n",
			`t.yaml:2: nodeGroups[0].maxSurge must be a whole number or a percentage like "25%", got "lots"`},
		{"maxSurge fraction", "nodeGroups:\n  - {name: nodes, maxSurge: 1.5}\n",
			`t.yaml:2: nodeGroups[0].maxSurge must be a whole number or a percentage like "25%", got "1.5"`},
		{"maxUnavailable over 100%", "nodeGroups:\n  - {name: nodes, maxUnavailable: 150%}\n",
			`t.yaml:2: nodeGroups[0].maxUnavailable "150%" is more than 100% of the group (write a percentage from 0% to 100%, or a node count like 2)`},
		{"negative maxUnavailable", "nodeGroups:\n  - {name: nodes, maxUnavailable: -1}\n",
			`t.yaml:2: nodeGroups[0].maxUnavailable -1 is out of range (use 0 or more)`},
		{"bad boot time", "nodeGroups:\n  - {name: nodes, bootTime: 1 minute}\n",
			`t.yaml:2: nodeGroups[0].bootTime "1 minute" is not a duration (write it like "90s" or "1m30s")`},
		{"bad taint effect", "nodeGroups:\n  - name: nodes\n    taints:\n      - {key: dedicated, effect: NoRun}\n",
			`t.yaml:4: nodeGroups[0].taints[0].effect "NoRun" is not a taint effect (use one of: NoSchedule, PreferNoSchedule, NoExecute)`},
		{"bad node label", "nodeGroups:\n  - name: nodes\n    labels: {\"a b\": x}\n",
			`t.yaml:3: nodeGroups[0].labels key "a b" is not a valid label key: name part must consist of alphanumeric characters, '-', '_' or '.', and must start and end with an alphanumeric character (e.g. 'MyName',  or 'my.name',  or '123-abc', regex used for validation is '([A-Za-z0-9][-A-Za-z0-9_.]*)?[A-Za-z0-9]')`},

		{"image rule without match", "images:\n  - {ready: 1s}\n", `t.yaml:2: images[0] has no match (add match: "*" or a glob such as "nginx:*")`},
		{"duration without unit", "images:\n  - {match: \"*\", ready: 3}\n", `t.yaml:2: images[0].ready "3" has no unit (write it like "3s")`},
		{"log lines not a list", "images:\n  - {match: \"*\", logs: starting}\n", `t.yaml:2: images[0].logs must be a list (write each entry on a line starting with "- ", like logs: ["starting", "listening on :8080"])`},
		{"log line not text", "images:\n  - match: \"*\"\n    logs: [{a: 1}]\n", `t.yaml:3: images[0].logs[0] must be a single value, not a mapping (quote it if it is text)`},
		{"negative duration", "images:\n  - {match: \"*\", pull: -1s}\n", `t.yaml:2: images[0].pull "-1s" is negative (durations count forward from the start)`},
		{"unparsable duration", "images:\n  - match: \"*\"\n    start: soon\n", `t.yaml:3: images[0].start "soon" is not a duration (write it like "90s" or "1m30s")`},
		{"yes is not a bool", "images:\n  - {match: \"*\", crashLoop: yes}\n", `t.yaml:2: images[0].crashLoop must be true or false, got "yes"`},
		{"crash and pull error", "images:\n  - {match: \"*\", crashLoop: true, pullError: true}\n",
			`t.yaml:2: images[0] sets both crashLoop and pullError (a container that is never pulled cannot crash; keep one)`},
		{"images not a list", "images: {match: \"*\"}\n",
			`t.yaml:1: images must be a list (write each entry on a line starting with "- ", like - {match: "*", start: 1s, ready: 1s})`},

		{"objects not text", "objects:\n  - kind: Deployment\n",
			`t.yaml:2: objects must be a block of YAML manifests (write objects: | and indent the manifests under it)`},
		{"unknown manifest field", deployment("    replica: 3\n"),
			`t.yaml:8: unknown field "spec.replica" in Deployment "web" (check the spelling: kubectl explain deployment.spec)`},
		{"unknown container field", deployment("    template:\n      spec:\n        containers:\n          - {name: a, image: nginx, imagePolicy: Always}\n"),
			`t.yaml:11: unknown field "spec.template.spec.containers[0].imagePolicy" in Deployment "web" (check the spelling: kubectl explain deployment.spec.template.spec.containers)`},
		{"replicas of the wrong type", deployment("    replicas: many\n"),
			`t.yaml:8: spec.replicas of Deployment "web" must be a whole number, not text`},
		{"negative replicas", deployment("    replicas: -2\n" + podTemplate),
			`t.yaml:8: Deployment "web" has spec.replicas -2 (use 0 or more)`},
		{"selector does not match", deployment("    selector: {matchLabels: {app: api}}\n    template:\n      metadata: {labels: {app: web}}\n      spec: {containers: [{name: a, image: nginx}]}\n"),
			`t.yaml:10: Deployment "web": template labels {app=web} do not match spec.selector app=api (give the template every label the selector asks for)`},
		{"no selector", deployment("    template:\n      metadata: {labels: {app: web}}\n      spec: {containers: [{name: a, image: nginx}]}\n"),
			`t.yaml:7: Deployment "web" has no spec.selector (add selector: {matchLabels: ...} with the template's labels)`},
		{"container without image", deployment(podTemplateWith("{name: a}")),
			`t.yaml:13: container "a" of Deployment "web" has no image (add image: ...)`},
		{"container without name", deployment(podTemplateWith("{image: nginx}")),
			`t.yaml:13: a container of Deployment "web" has no name (add name: ...)`},
		{"invalid image", deployment(podTemplateWith("{name: a, image: \"Nginx:latest\"}")),
			`t.yaml:13: container "a" of Deployment "web": image "Nginx:latest" is not a valid reference (invalid reference format: repository name (library/Nginx) must be lowercase) — use NAME[:TAG][@DIGEST], such as nginx:1.27`},
		{"bad resource quantity", deployment(podTemplateWith("{name: a, image: nginx, resources: {requests: {cpu: 1x}}}")),
			`t.yaml:13: spec.template.spec.containers[0].resources.requests.cpu "1x" is not a quantity (write it like "500m", "2" or "128Mi")`},
		{"both budgets zero", deployment("    strategy: {rollingUpdate: {maxSurge: 0, maxUnavailable: \"0%\"}}\n" + podTemplate),
			`t.yaml:8: Deployment "web" has maxSurge and maxUnavailable both 0, so the rollout could never progress (raise one of them)`},
		{"deadline not after min ready", deployment("    minReadySeconds: 30\n    progressDeadlineSeconds: 30\n" + podTemplate),
			`t.yaml:9: Deployment "web" has progressDeadlineSeconds 30, which must be more than minReadySeconds 30`},
		{"duplicate manifest key", deployment("    replicas: 1\n    replicas: 2\n"),
			`t.yaml:9: duplicate key "replicas" in spec (first set on line 8; keep one)`},
		{"unsupported kind", "objects: |\n  apiVersion: batch/v1\n  kind: CronJob\n  metadata: {name: db}\n",
			`t.yaml:3: kind "CronJob" is not supported in scenarios (use one of: Deployment, ReplicationController, StatefulSet, DaemonSet, Rollout, ReplicaSet, PodDisruptionBudget, Namespace, ConfigMap, Service, Pod, AnalysisTemplate)`},
		{"argo rollout misspelled", "objects: |\n  apiVersion: argoproj.io/v1alpha1\n  kind: Rollout\n  metadata: {name: checkout}\n  spec:\n    replicaz: 3\n",
			`t.yaml:2: unknown field "replicaz" in Rollout "checkout" (check the spelling: kubectl explain rollout)`},
		{"argo rollout without selector", "objects: |\n  apiVersion: argoproj.io/v1alpha1\n  kind: Rollout\n  metadata: {name: checkout}\n  spec:\n    strategy: {canary: {}}\n",
			`t.yaml:5: Rollout "checkout" has no spec.selector (add selector: {matchLabels: ...} with the template's labels)`},
		{"rollout with a traffic router", rollout("      canary:\n        trafficRouting: {nginx: {stableIngress: web}}\n"),
			`t.yaml:12: Rollout "checkout" has a traffic router (spec.strategy.canary.trafficRouting), which rollscope's embedded Argo controller does not run (it runs the basic canary (setWeight, pause, setCanaryScale and analysis steps and a background analysis of namespaced AnalysisTemplates, without a traffic router, services or experiments) and blue/green without analysis)`},
		{"rollout with an experiment step", rollout("      canary:\n        steps:\n          - setWeight: 20\n          - experiment: {templates: []}\n"),
			`t.yaml:14: Rollout "checkout" has an experiment step (spec.strategy.canary.steps[1].experiment), which rollscope's embedded Argo controller does not run (it runs the basic canary (setWeight, pause, setCanaryScale and analysis steps and a background analysis of namespaced AnalysisTemplates, without a traffic router, services or experiments) and blue/green without analysis)`},
		{"rollout with an analysis step", rollout("      canary:\n        steps:\n          - analysis: {templates: [{templateName: ok}]}\n"),
			`t.yaml:4: Rollout "checkout" runs AnalysisTemplate "ok", which the scenario does not declare (add it under objects:, kind: AnalysisTemplate)`},
		{"rollout with background analysis", rollout("      canary:\n        analysis: {templates: [{templateName: ok}]}\n"),
			`t.yaml:4: Rollout "checkout" runs AnalysisTemplate "ok", which the scenario does not declare (add it under objects:, kind: AnalysisTemplate)`},
		{"blue/green rollout with analysis", rollout("      blueGreen:\n        activeService: web\n        prePromotionAnalysis: {templates: [{templateName: ok}]}\n"),
			`t.yaml:13: Rollout "checkout" has a pre-promotion analysis (spec.strategy.blueGreen.prePromotionAnalysis), which rollscope's embedded Argo controller does not run (it runs the basic canary (setWeight, pause, setCanaryScale and analysis steps and a background analysis of namespaced AnalysisTemplates, without a traffic router, services or experiments) and blue/green without analysis)`},
		{"statefulset partition", "objects: |\n  apiVersion: apps/v1\n  kind: StatefulSet\n  metadata: {name: db}\n  spec:\n    selector: {matchLabels: {app: db}}\n    updateStrategy: {rollingUpdate: {partition: -1}}\n    template:\n      metadata: {labels: {app: db}}\n      spec: {containers: [{name: db, image: db}]}\n",
			`t.yaml:7: StatefulSet "db" has spec.updateStrategy.rollingUpdate.partition -1 (use 0 or more)`},
		{"daemonset without budget", "objects: |\n  apiVersion: apps/v1\n  kind: DaemonSet\n  metadata: {name: agent}\n  spec:\n    selector: {matchLabels: {app: agent}}\n    updateStrategy: {rollingUpdate: {maxUnavailable: 0, maxSurge: 0}}\n    template:\n      metadata: {labels: {app: agent}}\n      spec: {containers: [{name: agent, image: agent}]}\n",
			`t.yaml:7: DaemonSet "agent" has maxUnavailable and maxSurge both 0 (one of them must allow progress)`},
		{"old apiVersion", "objects: |\n  apiVersion: extensions/v1beta1\n  kind: Deployment\n  metadata: {name: web}\n",
			`t.yaml:2: Deployment needs apiVersion "apps/v1", got "extensions/v1beta1" (write apiVersion: apps/v1)`},
		{"namespace not created", "objects: |\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a, namespace: shop}\n",
			`t.yaml:4: ConfigMap "a" is in namespace "shop", which the scenario does not create — declare it above (kind: Namespace, metadata: {name: shop}) or leave namespace out for "default"`},
		{"no kind", "objects: |\n  apiVersion: v1\n  metadata: {name: x}\n", `t.yaml:2: manifest has no kind (add kind: and apiVersion:, for example kind: Deployment and apiVersion: apps/v1)`},
		{"no name", "objects: |\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {labels: {a: b}}\n",
			`t.yaml:4: ConfigMap has no metadata.name (every object needs a name: actions and traces refer to objects by name)`},
		{"error in the second manifest", "objects: |\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\n  ---\n  # the next one is wrong\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: b}\n  data: {x: [1]}\n",
			`t.yaml:10: data of ConfigMap "b" must be text, not a list`},
		{"manifest syntax error", "objects: |\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a\n",
			`t.yaml:4: invalid YAML: did not find expected ',' or '}' (check indentation, quoting and colons)`},
		{"duplicate object", "objects: |\n  apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\n  ---\n  apiVersion: v1\n  kind: ConfigMap\n  metadata:\n    name: a\n",
			`t.yaml:9: duplicate ConfigMap "a" in namespace "default" (first declared on line 4; names must be unique per kind)`},
		{"rc template labels off selector", "objects: |\n  apiVersion: v1\n  kind: ReplicationController\n  metadata: {name: a}\n  spec:\n    selector: {app: a}\n    template:\n      metadata: {labels: {app: b}}\n      spec: {containers: [{name: a, image: nginx}]}\n",
			`t.yaml:8: ReplicationController "a": template labels {app=b} do not match spec.selector {app=a} (give the template every label of the selector)`},
		{"pdb with both budgets", "objects: |\n  apiVersion: policy/v1\n  kind: PodDisruptionBudget\n  metadata: {name: a}\n  spec: {minAvailable: 1, maxUnavailable: 1}\n",
			`t.yaml:5: PodDisruptionBudget "a" sets both minAvailable and maxUnavailable (keep one)`},

		{"action without at", workload + "  - {pause: deployment/web}\n", `t.yaml:27: actions[0] has no at (add the time it happens, like at: 60s)`},
		{"action at negative time", workload + "  - {at: -5s, pause: deployment/web}\n", `t.yaml:27: actions[0].at "-5s" is negative (durations count forward from the start)`},
		{"no action", workload + "  - {at: 5s}\n", `t.yaml:27: actions[0] names no action (add one of: setImage, setEnv, pause, resume, undo, abort, scale, restart, drain, rollNodes, nextNode, canary, promote, partition, retry)`},
		{"two actions", workload + "  - at: 5s\n    pause: deployment/web\n    resume: deployment/web\n",
			`t.yaml:29: actions[0] has both pause and resume (write one action per entry, each with its own at)`},
		{"unknown action", workload + "  - {at: 5s, rollback: deployment/web}\n",
			`t.yaml:27: unknown key "rollback" in actions[0] (known: at, setImage, setEnv, pause, resume, undo, abort, scale, restart, drain, rollNodes, nextNode, canary, promote, partition, retry)`},
		{"unknown target", workload + "  - {at: 5s, pause: deployment/api}\n",
			`t.yaml:27: actions[0].pause target "deployment/api": no Deployment "api" in namespace "default" among the objects (declare it under objects: or fix the name)`},
		{"target without kind", workload + "  - {at: 5s, pause: web}\n",
			`t.yaml:27: actions[0].pause target "web" must be kind/name (write it like deployment/frontend or rc/frontend)`},
		{"target of another kind", workload + "  - {at: 5s, pause: job/web}\n",
			`t.yaml:27: actions[0].pause target "job/web": actions apply to deployments, replication controllers, statefulsets and daemonsets (write deployment/NAME, rc/NAME, statefulset/NAME or daemonset/NAME)`},
		{"pause on a statefulset", workload + "  - {at: 5s, pause: statefulset/web}\n",
			`t.yaml:27: actions[0].pause target "statefulset/web": pause does not apply to statefulsets (they take setImage, setEnv, restart, undo, scale, partition)`},
		{"partition of a daemonset", workload + "  - {at: 5s, partition: {target: ds/web, partition: 1}}\n",
			`t.yaml:27: actions[0].partition target "ds/web": partition does not apply to daemonsets (they take setImage, setEnv, restart, undo)`},
		{"partition of a deployment", workload + "  - {at: 5s, partition: {target: deployment/web, partition: 1}}\n",
			`t.yaml:27: actions[0].partition target "deployment/web": partition applies to statefulsets only (write statefulset/NAME)`},
		{"pause on an rc", workload + "  - {at: 5s, pause: rc/legacy}\n",
			`t.yaml:27: actions[0].pause target "rc/legacy": pause applies to deployments only (ReplicationControllers have no rollout history or pause)`},
		{"unknown container", workload + "  - {at: 5s, setImage: {target: deploy/web, container: php, image: nginx:1.28}}\n",
			`t.yaml:27: actions[0].setImage: deployment/web has no container "php" (its containers: app, sidecar)`},
		{"container needed", workload + "  - {at: 5s, setImage: {target: deploy/web, image: nginx:1.28}}\n",
			`t.yaml:27: actions[0].setImage has no container and deployment/web has several (add container: with one of: app, sidecar)`},
		{"invalid new image", workload + "  - at: 5s\n    setImage: {target: rc/legacy, image: \"nginx:1.28 \"}\n",
			`t.yaml:28: actions[0].setImage: image "nginx:1.28 " has spaces around it — remove them`},
		{"invalid env name", workload + "  - {at: 5s, setEnv: {target: rc/legacy, env: {\"A=B\": x}}}\n",
			`t.yaml:27: actions[0].setEnv.env: "A=B" is not a valid key name: use letters, digits, '_', '-' and '.', not starting with a digit (such as LOG_LEVEL), as kubectl set env requires`},
		{"negative revision", workload + "  - {at: 5s, undo: {target: deployment/web, toRevision: -1}}\n",
			`t.yaml:27: actions[0].undo.toRevision -1 is negative (use a revision number from the history, or 0 for the previous one)`},
		{"too many replicas", workload + "  - {at: 5s, scale: {target: deployment/web, replicas: 2147483648}}\n",
			`t.yaml:27: actions[0].scale.replicas 2147483648 is out of range (use 0 to 2147483647)`},
		{"drain of a node that does not exist", workload + "  - {at: 5s, drain: {node: nodes-6}}\n",
			`t.yaml:27: actions[0].drain: node "nodes-6" is not among the nodes the cluster starts with (nodes are named <group>-<index>: nodes-0 to nodes-5, spare-0)`},
		{"drain with a padded index", workload + "  - {at: 5s, drain: nodes-01}\n",
			`t.yaml:27: actions[0].drain: node "nodes-01" is not among the nodes the cluster starts with (nodes are named <group>-<index>: nodes-0 to nodes-5, spare-0)`},
		{"roll of an unknown group", workload + "  - {at: 5s, rollNodes: {group: masters}}\n",
			`t.yaml:27: actions[0].rollNodes: no node group "masters" (groups: nodes, spare)`},
		{"roll with maxUnavailable over 100%", workload + "  - {at: 5s, rollNodes: {group: nodes, maxUnavailable: 150%}}\n",
			`t.yaml:27: actions[0].rollNodes.maxUnavailable "150%" is more than 100% of the group (write a percentage from 0% to 100%, or a node count like 2)`},
		{"roll with a negative maxSurge", workload + "  - {at: 5s, rollNodes: {group: nodes, maxSurge: -1}}\n",
			`t.yaml:27: actions[0].rollNodes.maxSurge -1 is out of range (use 0 or more)`},
		{"roll that can replace no node", workload + "  - at: 5s\n    rollNodes:\n      group: nodes\n      maxSurge: 0%\n      maxUnavailable: 0\n",
			`t.yaml:31: actions[0].rollNodes: maxSurge and maxUnavailable are both 0 for group "nodes", so no node could ever be replaced (raise one of them)`},
		{"roll with a zero interval", workload + "  - {at: 5s, rollNodes: {group: nodes, interval: 0}}\n",
			`t.yaml:27: actions[0].rollNodes.interval is 0 (write a positive duration like "30s", or leave it out for kops' default)`},
		{"roll with a drain timeout without unit", workload + "  - {at: 5s, rollNodes: {group: nodes, drainTimeout: 90}}\n",
			`t.yaml:27: actions[0].rollNodes.drainTimeout "90" has no unit (write it like "90s")`},
		{"roll with step not a bool", workload + "  - {at: 5s, rollNodes: {group: nodes, step: yes please}}\n",
			`t.yaml:27: actions[0].rollNodes.step must be true or false, got "yes please"`},
		{"roll option misspelt", workload + "  - {at: 5s, rollNodes: {group: nodes, surge: 1}}\n",
			`t.yaml:27: unknown key "surge" in actions[0].rollNodes (known: group, step, maxSurge, maxUnavailable, interval, drainTimeout, validationTimeout)`},
		{"roll options without group", workload + "  - {at: 5s, rollNodes: {step: true}}\n",
			`t.yaml:27: actions[0].rollNodes has no group (add group: NAME)`},
		{"next node without a stepped roll", workload + "  - {at: 5s, rollNodes: nodes}\n  - {at: 1m, nextNode: nodes}\n",
			`t.yaml:28: actions[1].nextNode: no stepped roll of group "nodes" before it (add rollNodes: {group: nodes, step: true} at an earlier time; a roll without step goes on by itself)`},
		{"next node before its roll", workload + "  - {at: 1m, rollNodes: {group: nodes, step: true}}\n  - {at: 5s, nextNode: {group: nodes}}\n",
			`t.yaml:28: actions[1].nextNode: no stepped roll of group "nodes" before it (add rollNodes: {group: nodes, step: true} at an earlier time; a roll without step goes on by itself)`},
		{"next node of an unknown group", workload + "  - {at: 5s, nextNode: masters}\n",
			`t.yaml:27: actions[0].nextNode: no node group "masters" (groups: nodes, spare)`},
		{"scale without replicas", workload + "  - at: 5s\n    scale:\n      target: rc/legacy\n",
			`t.yaml:29: actions[0].scale has no replicas (add replicas: N)`},
		{"canary without steps", workload + "  - {at: 5s, canary: {target: deployment/web, container: app, image: \"nginx:1.28\"}}\n",
			`t.yaml:27: actions[0].canary has no steps (add steps: [1, "25%"]; the last step, 100%, is added)`},
		{"canary step misspelled", workload + "  - {at: 5s, canary: {target: deployment/web, container: app, image: \"nginx:1.28\", steps: [1, 25]}}\n  - {at: 9s, canary: {target: deployment/web, container: app, image: \"nginx:1.28\", steps: [1, \"half\"]}}\n",
			`t.yaml:28: actions[1].canary.steps[1]: step "half" is neither a pod count (1, 2, ...) nor a percentage (10%)`},
		{"canary hold misspelled", workload + "  - {at: 5s, canary: {target: deployment/web, container: app, image: \"nginx:1.28\", steps: [1], hold: soon}}\n",
			`t.yaml:27: actions[0].canary.hold[0]: hold "soon" is neither pause nor a duration like 2m`},
		{"canary with image and env", workload + "  - {at: 5s, canary: {target: deployment/web, container: app, image: \"nginx:1.28\", env: {A: b}, steps: [1]}}\n",
			`t.yaml:27: actions[0].canary has both image and env (a canary changes one thing: write one of them)`},
		{"canary onFailure misspelled", workload + "  - {at: 5s, canary: {target: deployment/web, container: app, image: \"nginx:1.28\", steps: [1], onFailure: retry}}\n",
			`t.yaml:27: actions[0].canary: onFailure "retry" is neither pause nor abort`},
		{"promote on an rc", workload + "  - {at: 5s, promote: rc/legacy}\n",
			`t.yaml:27: actions[0].promote target "rc/legacy": promote applies to deployments only (ReplicationControllers have no rollout history or pause)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			sc, err := scenario.Parse("t.yaml", []byte(c.src))
			if err == nil {
				t.Fatalf("Parse accepted it: %+v", sc)
			}
			if got := err.Error(); got != c.want {
				t.Errorf("error\n got: %s\nwant: %s", got, c.want)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error spans lines: %q", err)
			}
			var se *scenario.Error
			if !errors.As(err, &se) || se.File != "t.yaml" {
				t.Errorf("error is not a *scenario.Error for t.yaml: %#v", err)
			}
		})
	}
}

// deployment wraps spec lines (indented 4) in a Deployment manifest whose
// spec: key is on line 7 of the file.
func deployment(spec string) string {
	return "name: t\nobjects: |\n  apiVersion: apps/v1\n  kind: Deployment\n  metadata:\n    name: web\n  spec:\n" + spec
}

// rollout is a Rollout with a valid template whose strategy (its lines
// indented six spaces) starts on line 11.
func rollout(strategy string) string {
	return "objects: |\n  apiVersion: argoproj.io/v1alpha1\n  kind: Rollout\n  metadata: {name: checkout}\n  spec:\n    selector: {matchLabels: {app: c}}\n    template:\n      metadata: {labels: {app: c}}\n      spec: {containers: [{name: c, image: c}]}\n    strategy:\n" + strategy
}

const podTemplate = "    selector: {matchLabels: {app: web}}\n    template:\n      metadata: {labels: {app: web}}\n      spec: {containers: [{name: a, image: nginx}]}\n"

// podTemplateWith is a matching selector and template whose one container,
// written in flow style, is on line 13 of a deployment() file.
func podTemplateWith(container string) string {
	return "    selector: {matchLabels: {app: web}}\n    template:\n      metadata: {labels: {app: web}}\n      spec:\n        containers:\n          - " + container + "\n"
}
