# The parawire image for the scale-out services in docker-compose.yml.
FROM python:3.11-slim

# Dependencies first, read from pyproject.toml alone: this layer is rebuilt only when the
# dependencies change, not on every code change.
WORKDIR /app
COPY pyproject.toml /app/
RUN python -c "import tomllib; print('\n'.join(tomllib.load(open('pyproject.toml', 'rb'))['project']['dependencies']))" \
      > /tmp/requirements.txt \
    && pip install --no-cache-dir -r /tmp/requirements.txt

# Then the code, installed without touching the dependencies.
COPY . /app
RUN pip install --no-cache-dir --no-deps /app

# Run as an unprivileged user; /data (the data volume) is theirs.
RUN useradd --create-home --uid 10001 parawire && mkdir -p /data && chown parawire:parawire /data
USER parawire
WORKDIR /data
