{{- define "portal.name" -}}
{{- default .Chart.Name .Values.nameOverride | trunc 63 | trimSuffix "-" -}}
{{- end -}}

{{- define "portal.fullname" -}}
{{- if .Values.fullnameOverride -}}
{{- .Values.fullnameOverride | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- $name := default .Chart.Name .Values.nameOverride -}}
{{- if contains $name .Release.Name -}}
{{- .Release.Name | trunc 63 | trimSuffix "-" -}}
{{- else -}}
{{- printf "%s-%s" .Release.Name $name | trunc 63 | trimSuffix "-" -}}
{{- end -}}
{{- end -}}
{{- end -}}

{{- define "portal.labels" -}}
helm.sh/chart: {{ printf "%s-%s" .Chart.Name .Chart.Version | replace "+" "_" }}
{{ include "portal.selectorLabels" . }}
app.kubernetes.io/version: {{ .Chart.AppVersion | quote }}
app.kubernetes.io/managed-by: {{ .Release.Service }}
{{- with .Values.commonLabels }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{- define "portal.selectorLabels" -}}
app.kubernetes.io/name: {{ include "portal.name" . }}
app.kubernetes.io/instance: {{ .Release.Name }}
{{- end -}}

{{- define "portal.serviceAccountName" -}}
{{- if .Values.serviceAccount.create -}}
{{- default (include "portal.fullname" .) .Values.serviceAccount.name -}}
{{- else -}}
{{- default "default" .Values.serviceAccount.name -}}
{{- end -}}
{{- end -}}

{{- define "portal.image" -}}
{{- $repo := .Values.image.repository -}}
{{- with .Values.image.registry }}{{- $repo = printf "%s/%s" (trimSuffix "/" .) $repo -}}{{- end -}}
{{- if .Values.image.digest -}}
{{- printf "%s@%s" $repo .Values.image.digest -}}
{{- else -}}
{{- printf "%s:%s" $repo (default .Chart.AppVersion .Values.image.tag) -}}
{{- end -}}
{{- end -}}

{{/*
portal.existingConfig says whether the configuration file comes from an
existing ConfigMap or Secret (existingConfig) rather than from config.
*/}}
{{- define "portal.existingConfig" -}}
{{- if or .Values.existingConfig.configMap .Values.existingConfig.secret -}}true{{- end -}}
{{- end -}}

{{/*
portal.config is the configuration file: the operator's config with the
addresses and shutdown periods the chart decides. A literal secret fails the render: secrets
are ${NAME}s given from Secrets.
*/}}
{{- define "portal.config" -}}
{{- $cfg := deepCopy (default dict .Values.config) -}}
{{- $_ := set $cfg "mode" "production" -}}
{{- $_ := set $cfg "listen" ":8080" -}}
{{- if .Values.baseURL }}{{- $_ := set $cfg "base_url" .Values.baseURL -}}{{- end -}}
{{- $metrics := deepCopy (default dict (get $cfg "metrics")) -}}
{{- if .Values.metrics.port }}{{- $_ := set $metrics "listen" (printf ":%v" .Values.metrics.port) -}}{{- end -}}
{{- $_ := set $cfg "metrics" $metrics -}}
{{- $_ := set $cfg "shutdown" (dict "drain" (printf "%vs" .Values.shutdown.drainSeconds) "grace" (printf "%vs" .Values.shutdown.graceSeconds)) -}}
{{- $out := toYaml $cfg -}}
{{- range $k := list "api_secret" "client_secret" "password" "bearer_token" -}}
{{- if regexMatch (printf "(?m)^\\s*%s:\\s*['\"]?[^'\"$\\s]" $k) $out -}}
{{- fail (printf "config.%s holds a literal value: write it as ${NAME} and give NAME under secrets.extraEnv" $k) -}}
{{- end -}}
{{- end -}}
{{- with (get (default dict (get $cfg "database")) "url") -}}
{{- if regexMatch "://[^:/@\\s]+:[^$@\\s][^@\\s]*@" (toString .) -}}
{{- fail "config.database.url holds a password: give the whole URL as DATABASE_URL from a Secret (secrets.keys), or its password as ${NAME} under secrets.extraEnv" -}}
{{- end -}}
{{- end -}}
{{- with (get (default dict (get $cfg "session")) "keys") -}}
{{- range . -}}
{{- if not (hasPrefix "${" (toString .)) -}}
{{- fail "config.session.keys holds a literal key: give RMS_SESSION_KEYS from a Secret (secrets.keys)" -}}
{{- end -}}
{{- end -}}
{{- end -}}
{{- $out -}}
{{- end -}}

{{/*
portal.env is the portal's environment: the Secrets' variables, the
configuration's ${NAME}s, plain variables and extra entries. The
deployment and the migration job share it.
*/}}
{{- define "portal.env" -}}
- name: TMPDIR
  value: /tmp
{{- range $name, $key := .Values.secrets.keys }}
{{- if $key }}
- name: {{ $name }}
  valueFrom:
    secretKeyRef:
      name: {{ $.Values.secrets.existingSecret }}
      key: {{ $key }}
{{- end }}
{{- end }}
{{- range $name, $ref := .Values.secrets.extraEnv }}
- name: {{ $name }}
  valueFrom:
    secretKeyRef:
      name: {{ required (printf "secrets.extraEnv.%s.secret" $name) $ref.secret }}
      key: {{ required (printf "secrets.extraEnv.%s.key" $name) $ref.key }}
{{- end }}
{{- range $name, $value := .Values.env }}
- name: {{ $name }}
  value: {{ $value | quote }}
{{- end }}
{{- with .Values.extraEnv }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/* portal.volumeMounts are the container's mounts, with the extra ones. */}}
{{- define "portal.volumeMounts" -}}
- name: config
  mountPath: /etc/portal
  readOnly: true
- name: tmp
  mountPath: /tmp
{{- with .Values.extraVolumeMounts }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/*
portal.volumes are the pod's volumes for a configuration map, or for the
existing ConfigMap or Secret that existingConfig names (its key is
mounted as config.yaml).
*/}}
{{- define "portal.volumes" -}}
{{- $ec := .root.Values.existingConfig }}
- name: config
{{- if $ec.secret }}
  secret:
    secretName: {{ $ec.secret }}
    items: [{key: {{ $ec.key | quote }}, path: config.yaml}]
{{- else if $ec.configMap }}
  configMap:
    name: {{ $ec.configMap }}
    items: [{key: {{ $ec.key | quote }}, path: config.yaml}]
{{- else }}
  configMap:
    name: {{ .configMap }}
{{- end }}
- name: tmp
  emptyDir:
    sizeLimit: 64Mi
{{- with .root.Values.extraVolumes }}
{{ toYaml . }}
{{- end }}
{{- end -}}

{{/*
portal.minReplicas is the fewest pods the chart runs: the autoscaler's
minimum or replicaCount.
*/}}
{{- define "portal.minReplicas" -}}
{{- if .Values.autoscaling.enabled -}}{{ .Values.autoscaling.minReplicas }}{{- else -}}{{ .Values.replicaCount }}{{- end -}}
{{- end -}}
