import { describe, expect, it } from 'vitest';
import { PLAN_LIMIT_CODES } from '../../common/plan-limits';
import { AdmissionCode } from '../modules/transcription/admission';
import { ExportError } from '../modules/exports/build';
import { ShareError } from '../modules/shares/shares';

describe('plan-limit codes', () => {
  it('are exactly the refusals a better plan would lift', () => {
    expect([...PLAN_LIMIT_CODES].sort()).toEqual(
      [...Object.values(AdmissionCode), ExportError.FORMAT_NOT_IN_PLAN, ShareError.LIMIT_REACHED].sort(),
    );
  });
});
