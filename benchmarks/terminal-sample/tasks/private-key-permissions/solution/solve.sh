#!/bin/bash
chmod 600 /app/id_key
