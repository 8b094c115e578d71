/**
 * The bench's model server's Python environment: KServe's Python model server (kserve 0.21.0)
 * with ONNX Runtime at the wheel the native row and the model alone take, on Debian's python3.11
 * without its torch (the server runs the ONNX export only). Every distribution of the resolution
 * is pinned, so a rebuild installs the same server.
 */
import { ONNXRUNTIME_WHEEL_VERSION } from "./onnxruntime-version.ts";

export const KSERVE_VERSION = "0.21.0";

export const MODEL_SERVER_REQUIREMENTS: readonly string[] = [
  `kserve==${KSERVE_VERSION}`,
  `onnxruntime==${ONNXRUNTIME_WHEEL_VERSION}`,
  // kserve 0.21.0's and onnxruntime's dependencies, as pip resolves them.
  ...("aiohappyeyeballs==2.7.1 aiohttp==3.14.5 aiohttp-retry==2.9.1 aiosignal==1.4.0 annotated-doc==0.0.7 annotated-types==0.8.0 anyio==4.16.0 " +
    "attrs==26.1.0 certifi==2026.10.19.post1 cffi==2.1.1 charset-normalizer==3.5.3 click==8.5.1 cloudevents==1.13.0 cryptography==51.0.1 " +
    "deprecation==2.1.0 durationpy==0.12 fastapi==0.165.0 flatbuffers==25.12.19 frozenlist==1.8.0 grpc-interceptor==0.15.4 grpcio==1.85.4 " +
    "grpcio-tools==1.81.1 h11==0.16.0 httpcore==1.0.9 httptools==0.9.0 httpx==0.29.0 idna==3.21 kubernetes==37.0.3 multidict==7.2.1 " +
    "numpy==2.4.6 oauthlib==4.0.1 opentelemetry-api==1.45.3 orjson==3.13.0 packaging==26.4 pandas==2.3.3 pillow==13.0.0 " +
    "prometheus_client==0.26.0 propcache==0.5.4 protobuf==6.33.6 psutil==5.9.8 pyasn1==0.6.5 pycparser==3.12 pydantic==2.14.4 " +
    "pydantic_core==2.50.5 PyJWT==2.15.1 python-dateutil==2.9.0.post0 python-dotenv==1.2.4 python-multipart==0.0.34 pytz==2026.6 " +
    "PyYAML==6.0.4 requests==2.34.2 requests-oauthlib==2.0.0 six==1.17.0 starlette==1.10.0 tabulate==0.10.0 timing-asgi==0.3.2 " +
    "typing-inspection==0.4.5 typing_extensions==4.16.0 tzdata==2026.6 urllib3==2.8.0 uvicorn==0.55.0 uvloop==0.23.0 watchfiles==1.3.0 " +
    "websocket-client==1.9.2 websockets==17.4 yarl==1.25.1").split(" "),
];
