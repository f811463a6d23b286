package watch

import (
	"encoding/json"
	"runtime"
	"strconv"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// realPod is a Deployment's running pod as a 1.36 API server returns it
// (kubectl get pod -o json): managed fields, the service account's projected
// token volume, env, probes, resources, default tolerations, container IDs.
const realPod = `{"apiVersion":"v1","kind":"Pod","metadata":{"creationTimestamp":"2026-11-24T10:00:00Z",
"generateName":"web-7b7d9c8f5d-","labels":{"app":"web","pod-template-hash":"7b7d9c8f5d","tier":"front"},
"annotations":{"kubectl.kubernetes.io/restartedAt":"2026-11-24T09:59:00Z","prometheus.io/scrape":"true","prometheus.io/port":"9090"},
"managedFields":[{"apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"f:metadata":{"f:generateName":{},"f:labels":{".":{},"f:app":{},"f:pod-template-hash":{},"f:tier":{}},"f:ownerReferences":{".":{},"k:{\"uid\":\"0b6c8a55-4f1e-4c59-9a3e-2f0d6f2b4a11\"}":{}}},"f:spec":{"f:containers":{"k:{\"name\":\"app\"}":{".":{},"f:env":{".":{},"k:{\"name\":\"MODE\"}":{".":{},"f:name":{},"f:value":{}}},"f:image":{},"f:imagePullPolicy":{},"f:name":{},"f:ports":{},"f:readinessProbe":{},"f:resources":{}}},"f:dnsPolicy":{},"f:enableServiceLinks":{},"f:restartPolicy":{},"f:schedulerName":{},"f:securityContext":{},"f:terminationGracePeriodSeconds":{}}},"manager":"kube-controller-manager","operation":"Update","time":"2026-11-24T10:00:00Z"},
{"apiVersion":"v1","fieldsType":"FieldsV1","fieldsV1":{"f:status":{"f:conditions":{"k:{\"type\":\"ContainersReady\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}},"k:{\"type\":\"Initialized\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}},"k:{\"type\":\"Ready\"}":{".":{},"f:lastProbeTime":{},"f:lastTransitionTime":{},"f:status":{},"f:type":{}}},"f:containerStatuses":{},"f:hostIP":{},"f:hostIPs":{},"f:phase":{},"f:podIP":{},"f:podIPs":{".":{},"k:{\"ip\":\"10.244.1.17\"}":{".":{},"f:ip":{}}},"f:startTime":{}}},"manager":"kubelet","operation":"Update","subresource":"status","time":"2026-11-24T10:00:09Z"}],
"name":"web-7b7d9c8f5d-NAME","namespace":"payments",
"ownerReferences":[{"apiVersion":"apps/v1","blockOwnerDeletion":true,"controller":true,"kind":"ReplicaSet","name":"web-7b7d9c8f5d","uid":"0b6c8a55-4f1e-4c59-9a3e-2f0d6f2b4a11"}],
"resourceVersion":"1234567","uid":"6f1d3c2e-8a7b-4c5d-9e0f-1a2b3c4d5e6f"},
"spec":{"containers":[{"env":[{"name":"MODE","value":"prod"},{"name":"POD_NAME","valueFrom":{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.name"}}}],
"image":"registry.example.com/payments/web:1.4.2","imagePullPolicy":"IfNotPresent","name":"app","ports":[{"containerPort":8080,"name":"http","protocol":"TCP"}],
"readinessProbe":{"failureThreshold":3,"httpGet":{"path":"/healthz","port":8080,"scheme":"HTTP"},"periodSeconds":5,"successThreshold":1,"timeoutSeconds":1},
"resources":{"limits":{"memory":"256Mi"},"requests":{"cpu":"100m","memory":"128Mi"}},"terminationMessagePath":"/dev/termination-log","terminationMessagePolicy":"File",
"volumeMounts":[{"mountPath":"/var/run/secrets/kubernetes.io/serviceaccount","name":"kube-api-access-x7k2p","readOnly":true}]}],
"dnsPolicy":"ClusterFirst","enableServiceLinks":true,"nodeName":"node-17","preemptionPolicy":"PreemptLowerPriority","priority":0,"restartPolicy":"Always",
"schedulerName":"default-scheduler","securityContext":{},"serviceAccount":"default","serviceAccountName":"default","terminationGracePeriodSeconds":30,
"tolerations":[{"effect":"NoExecute","key":"node.kubernetes.io/not-ready","operator":"Exists","tolerationSeconds":300},{"effect":"NoExecute","key":"node.kubernetes.io/unreachable","operator":"Exists","tolerationSeconds":300}],
"volumes":[{"name":"kube-api-access-x7k2p","projected":{"defaultMode":420,"sources":[{"serviceAccountToken":{"expirationSeconds":3607,"path":"token"}},{"configMap":{"items":[{"key":"ca.crt","path":"ca.crt"}],"name":"kube-root-ca.crt"}},{"downwardAPI":{"items":[{"fieldRef":{"apiVersion":"v1","fieldPath":"metadata.namespace"},"path":"namespace"}]}}]}}]},
"status":{"conditions":[{"lastProbeTime":null,"lastTransitionTime":"2026-11-24T10:00:03Z","status":"True","type":"PodReadyToStartContainers"},
{"lastProbeTime":null,"lastTransitionTime":"2026-11-24T10:00:00Z","status":"True","type":"Initialized"},
{"lastProbeTime":null,"lastTransitionTime":"2026-11-24T10:00:09Z","status":"True","type":"Ready"},
{"lastProbeTime":null,"lastTransitionTime":"2026-11-24T10:00:09Z","status":"True","type":"ContainersReady"},
{"lastProbeTime":null,"lastTransitionTime":"2026-11-24T10:00:00Z","status":"True","type":"PodScheduled"}],
"containerStatuses":[{"containerID":"containerd://4f7c1b2a9e8d7c6b5a4f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e4d3c2b","image":"registry.example.com/payments/web:1.4.2",
"imageID":"registry.example.com/payments/web@sha256:9b2a1c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f9","lastState":{},"name":"app","ready":true,"restartCount":0,"started":true,
"state":{"running":{"startedAt":"2026-11-24T10:00:04Z"}},"volumeMounts":[{"mountPath":"/var/run/secrets/kubernetes.io/serviceaccount","name":"kube-api-access-x7k2p","readOnly":true,"recursiveReadOnly":"Disabled"}]}],
"hostIP":"172.18.0.17","hostIPs":[{"ip":"172.18.0.17"}],"phase":"Running","podIP":"10.244.1.17","podIPs":[{"ip":"10.244.1.17"}],"qosClass":"Burstable","startTime":"2026-11-24T10:00:00Z"}}`

// BenchmarkHeapPerCachedPod decodes pods as an informer does and keeps what
// the transform returns, as its cache keeps it: the heap each cached pod
// costs (B/pod, after a collection).
//
//	go test ./kube/watch -run '^$' -bench HeapPerCachedPod -benchtime 1x
func BenchmarkHeapPerCachedPod(b *testing.B) {
	const pods = 5000
	for _, c := range []struct {
		name      string
		transform func(any) (any, error)
	}{
		{"as-decoded", func(o any) (any, error) { return o, nil }},
		{"transformed", trim},
	} {
		b.Run(c.name, func(b *testing.B) {
			for range b.N {
				kept := make([]any, 0, pods)
				var before, after runtime.MemStats
				runtime.GC()
				runtime.ReadMemStats(&before)
				for i := range pods {
					p := &corev1.Pod{}
					if err := json.Unmarshal([]byte(strings.Replace(realPod, "NAME", strconv.Itoa(i), 1)), p); err != nil {
						b.Fatal(err)
					}
					out, err := c.transform(p)
					if err != nil {
						b.Fatal(err)
					}
					kept = append(kept, out)
				}
				runtime.GC()
				runtime.ReadMemStats(&after)
				b.ReportMetric(float64(after.HeapAlloc-before.HeapAlloc)/pods, "B/pod")
				runtime.KeepAlive(kept)
			}
		})
	}
}
