"""schemathesis against the dashboard's OpenAPI schema: valid requests get documented status
codes and bodies, invalid ones a 4xx, and nothing a server error. Few examples per
operation and mode (the API tests check the content)."""

from __future__ import annotations

import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis.checks import (
    negative_data_rejection,
    not_a_server_error,
    response_schema_conformance,
    status_code_conformance,
)

from parawire.config import load_settings
from parawire.dashboard import create_app
from tests.integration import test_dashboard_api

corpus = test_dashboard_api.corpus
CHECKS = {
    GenerationMode.POSITIVE: [not_a_server_error, status_code_conformance,
                              response_schema_conformance],
    GenerationMode.NEGATIVE: [not_a_server_error, negative_data_rejection],
}
EXAMPLES = 20


def _fuzz(operation, mode: GenerationMode, headers: dict[str, str]) -> None:
    @given(case=operation.as_strategy(generation_mode=mode))
    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    def call(case):
        case.call_and_validate(headers=headers, checks=CHECKS[mode])

    call()


def test_api_answers_generated_requests_as_documented(corpus, tmp_path):
    # schemathesis calls the app as "testserver": a host this app is told to serve.
    app = create_app(load_settings(data_dir=tmp_path / "data",
                                   dashboard={"allowed_hosts": ["testserver"]}),
                     token=test_dashboard_api.TOKEN, store=corpus.store)
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    headers = {"Authorization": f"Bearer {test_dashboard_api.TOKEN}"}
    operations = [result.ok() for result in schema.get_all_operations()]
    assert {op.label for op in operations} >= {"GET /api/overview", "GET /api/pairs",
                                               "POST /api/runs/{run_id}/labels",
                                               "GET /health", "GET /metrics"}
    for operation in operations:
        _fuzz(operation, GenerationMode.POSITIVE, headers)
        if any(len(part) for part in (operation.path_parameters, operation.query,
                                      operation.body)):
            _fuzz(operation, GenerationMode.NEGATIVE, headers)
