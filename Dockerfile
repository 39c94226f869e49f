# The parawire image for the scale-out services in docker-compose.yml.
FROM python:3.11-slim
WORKDIR /app
COPY . /app
RUN pip install --no-cache-dir -e .
