"""The AWS Lambda adapter: ``pdfthin.adapters.aws.handler.handler``.

- :mod:`.config` — settings from environment variables, read once per container;
- :mod:`.events` — the four event shapes in (Function URL, HTTP API v2, REST v1 proxy, direct
  invocation) and the matching response shapes out;
- :mod:`.s3` — documents from S3 through boto3 (imported only for an S3 request), inside the
  configured buckets;
- :mod:`.handler` — dispatch to :mod:`pdfthin.operations`, HTTP status codes, the response
  payload limit and the deadline;
- :mod:`.items` — one Step Functions Distributed Map item (``{"batch_item": ...}``): an S3
  document into ``pdfthin batch``'s output for it, written to S3; failures raised with typed
  names for the Map's Retry (imported for items only).

Nothing here keeps state a later request depends on: cursors carry everything, so any
container, cold or warm, answers the same request the same way. The per-container caches only
save work.
"""
