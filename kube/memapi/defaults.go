package memapi

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// applyDefaults fills in what the real server's apps/v1 and core/v1
// defaulting fills in. It has to match upstream field for field: the
// pod-template-hash of a template is a hash of every field, defaulted ones
// included, so a template defaulted differently would roll out under a
// different ReplicaSet name than on a real cluster.
func applyDefaults(obj runtime.Object) {
	switch o := obj.(type) {
	case *corev1.Pod:
		defaultPod(o)
	case *corev1.PodTemplate:
		defaultPodSpec(&o.Template.Spec)
	case *corev1.ReplicationController:
		defaultReplicationController(o)
	case *appsv1.Deployment:
		defaultDeployment(o)
	case *appsv1.ReplicaSet:
		if o.Spec.Replicas == nil {
			o.Spec.Replicas = ptrTo[int32](1)
		}
		defaultPodSpec(&o.Spec.Template.Spec)
	case *appsv1.DaemonSet:
		defaultDaemonSet(o)
	case *appsv1.StatefulSet:
		defaultStatefulSet(o)
	case *corev1.Namespace:
		if o.Name != "" {
			setLabel(&o.Labels, corev1.LabelMetadataName, o.Name)
		}
		if o.Status.Phase == "" {
			o.Status.Phase = corev1.NamespaceActive
		}
	case *corev1.Node:
		if o.Status.Allocatable == nil && o.Status.Capacity != nil {
			o.Status.Allocatable = o.Status.Capacity.DeepCopy()
		}
		roundResources(o.Status.Capacity)
		roundResources(o.Status.Allocatable)
	case *corev1.Service:
		defaultService(o)
	case *corev1.Secret:
		if o.Type == "" {
			o.Type = corev1.SecretTypeOpaque
		}
	case *corev1.ConfigMap:
		if o.Data == nil {
			o.Data = map[string]string{}
		}
	case *corev1.Endpoints:
		for i := range o.Subsets {
			for j := range o.Subsets[i].Ports {
				if o.Subsets[i].Ports[j].Protocol == "" {
					o.Subsets[i].Ports[j].Protocol = corev1.ProtocolTCP
				}
			}
		}
	}
}

func defaultDeployment(d *appsv1.Deployment) {
	if d.Spec.Replicas == nil {
		d.Spec.Replicas = ptrTo[int32](1)
	}
	s := &d.Spec.Strategy
	if s.Type == "" {
		s.Type = appsv1.RollingUpdateDeploymentStrategyType
	}
	if s.Type == appsv1.RollingUpdateDeploymentStrategyType {
		if s.RollingUpdate == nil {
			s.RollingUpdate = &appsv1.RollingUpdateDeployment{}
		}
		if s.RollingUpdate.MaxUnavailable == nil {
			s.RollingUpdate.MaxUnavailable = ptrTo(intstr.FromString("25%"))
		}
		if s.RollingUpdate.MaxSurge == nil {
			s.RollingUpdate.MaxSurge = ptrTo(intstr.FromString("25%"))
		}
	}
	if d.Spec.RevisionHistoryLimit == nil {
		d.Spec.RevisionHistoryLimit = ptrTo[int32](10)
	}
	if d.Spec.ProgressDeadlineSeconds == nil {
		d.Spec.ProgressDeadlineSeconds = ptrTo[int32](600)
	}
	defaultPodSpec(&d.Spec.Template.Spec)
}

func defaultReplicationController(rc *corev1.ReplicationController) {
	if rc.Spec.Template != nil && rc.Spec.Template.Labels != nil {
		if len(rc.Spec.Selector) == 0 {
			rc.Spec.Selector = rc.Spec.Template.Labels
		}
		if len(rc.Labels) == 0 {
			rc.Labels = rc.Spec.Template.Labels
		}
	}
	if rc.Spec.Replicas == nil {
		rc.Spec.Replicas = ptrTo[int32](1)
	}
	if rc.Spec.Template != nil {
		defaultPodSpec(&rc.Spec.Template.Spec)
	}
}

func defaultDaemonSet(ds *appsv1.DaemonSet) {
	s := &ds.Spec.UpdateStrategy
	if s.Type == "" {
		s.Type = appsv1.RollingUpdateDaemonSetStrategyType
	}
	if s.Type == appsv1.RollingUpdateDaemonSetStrategyType {
		if s.RollingUpdate == nil {
			s.RollingUpdate = &appsv1.RollingUpdateDaemonSet{}
		}
		if s.RollingUpdate.MaxUnavailable == nil {
			s.RollingUpdate.MaxUnavailable = ptrTo(intstr.FromInt32(1))
		}
		if s.RollingUpdate.MaxSurge == nil {
			s.RollingUpdate.MaxSurge = ptrTo(intstr.FromInt32(0))
		}
	}
	if ds.Spec.RevisionHistoryLimit == nil {
		ds.Spec.RevisionHistoryLimit = ptrTo[int32](10)
	}
	defaultPodSpec(&ds.Spec.Template.Spec)
}

func defaultStatefulSet(ss *appsv1.StatefulSet) {
	if ss.Spec.PodManagementPolicy == "" {
		ss.Spec.PodManagementPolicy = appsv1.OrderedReadyPodManagement
	}
	s := &ss.Spec.UpdateStrategy
	if s.Type == "" {
		s.Type = appsv1.RollingUpdateStatefulSetStrategyType
		if s.RollingUpdate == nil {
			s.RollingUpdate = &appsv1.RollingUpdateStatefulSetStrategy{}
		}
	}
	if s.Type == appsv1.RollingUpdateStatefulSetStrategyType && s.RollingUpdate != nil && s.RollingUpdate.Partition == nil {
		s.RollingUpdate.Partition = ptrTo[int32](0)
	}
	if ss.Spec.PersistentVolumeClaimRetentionPolicy == nil {
		ss.Spec.PersistentVolumeClaimRetentionPolicy = &appsv1.StatefulSetPersistentVolumeClaimRetentionPolicy{}
	}
	if ss.Spec.PersistentVolumeClaimRetentionPolicy.WhenDeleted == "" {
		ss.Spec.PersistentVolumeClaimRetentionPolicy.WhenDeleted = appsv1.RetainPersistentVolumeClaimRetentionPolicyType
	}
	if ss.Spec.PersistentVolumeClaimRetentionPolicy.WhenScaled == "" {
		ss.Spec.PersistentVolumeClaimRetentionPolicy.WhenScaled = appsv1.RetainPersistentVolumeClaimRetentionPolicyType
	}
	if ss.Spec.Replicas == nil {
		ss.Spec.Replicas = ptrTo[int32](1)
	}
	if ss.Spec.RevisionHistoryLimit == nil {
		ss.Spec.RevisionHistoryLimit = ptrTo[int32](10)
	}
	defaultPodSpec(&ss.Spec.Template.Spec)
	for i := range ss.Spec.VolumeClaimTemplates {
		pvc := &ss.Spec.VolumeClaimTemplates[i]
		if pvc.Status.Phase == "" {
			pvc.Status.Phase = corev1.ClaimPending
		}
		defaultClaimSpec(&pvc.Spec)
		roundResources(pvc.Status.Capacity)
		roundResources(pvc.Status.AllocatedResources)
	}
}

func defaultService(s *corev1.Service) {
	if s.Spec.SessionAffinity == "" {
		s.Spec.SessionAffinity = corev1.ServiceAffinityNone
	}
	if s.Spec.SessionAffinity == corev1.ServiceAffinityNone {
		s.Spec.SessionAffinityConfig = nil
	}
	if s.Spec.SessionAffinity == corev1.ServiceAffinityClientIP {
		c := s.Spec.SessionAffinityConfig
		if c == nil || c.ClientIP == nil || c.ClientIP.TimeoutSeconds == nil {
			s.Spec.SessionAffinityConfig = &corev1.SessionAffinityConfig{ClientIP: &corev1.ClientIPConfig{TimeoutSeconds: ptrTo(corev1.DefaultClientIPServiceAffinitySeconds)}}
		}
	}
	if s.Spec.Type == "" {
		s.Spec.Type = corev1.ServiceTypeClusterIP
	}
	for i := range s.Spec.Ports {
		p := &s.Spec.Ports[i]
		if p.Protocol == "" {
			p.Protocol = corev1.ProtocolTCP
		}
		if p.TargetPort == intstr.FromInt32(0) || p.TargetPort == intstr.FromString("") {
			p.TargetPort = intstr.FromInt32(p.Port)
		}
	}
	external := s.Spec.Type == corev1.ServiceTypeNodePort || s.Spec.Type == corev1.ServiceTypeLoadBalancer || len(s.Spec.ExternalIPs) > 0
	if external && s.Spec.ExternalTrafficPolicy == "" {
		s.Spec.ExternalTrafficPolicy = corev1.ServiceExternalTrafficPolicyCluster
	}
	if s.Spec.InternalTrafficPolicy == nil && (s.Spec.Type == corev1.ServiceTypeNodePort || s.Spec.Type == corev1.ServiceTypeLoadBalancer || s.Spec.Type == corev1.ServiceTypeClusterIP) {
		s.Spec.InternalTrafficPolicy = ptrTo(corev1.ServiceInternalTrafficPolicyCluster)
	}
	if s.Spec.Type == corev1.ServiceTypeLoadBalancer && s.Spec.AllocateLoadBalancerNodePorts == nil {
		s.Spec.AllocateLoadBalancerNodePorts = ptrTo(true)
	}
}

func ptrTo[T any](v T) *T { return &v }

func setLabel(labels *map[string]string, key, value string) {
	if *labels == nil {
		*labels = map[string]string{}
	}
	(*labels)[key] = value
}
