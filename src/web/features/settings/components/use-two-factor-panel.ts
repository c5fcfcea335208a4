import { useEffect, useRef, useState } from 'react';
import { reauthenticateRequest } from '../../../../contracts/auth';
import { TWO_FACTOR_MESSAGES, regenerateRecoveryCodesRequest, totpCodeForm, twoFactorDisableForm } from '../../../../contracts/two-factor';
import { ApiError, errorMessage } from '../../../lib/api';
import { useZodForm } from '../../../ui/Form';
import { useToast } from '../../../ui/toast';
import { useDisableTwoFactor, useEnableTwoFactor, useReauthenticate, useRegenerateRecoveryCodes, useStartTwoFactorSetup, useTwoFactorStatus } from '../api/two-factor';
import { savedForm, type TwoFactorView } from './two-factor-model';

/**
 * The two-factor panel's state: the step shown, the problem said, the forms of each step, the
 * server's calls, and focus (each step's heading, the panel's heading when a step ends).
 */
export function useTwoFactorPanel(enabled: boolean) {
  const toast = useToast();
  const [view, setView] = useState<TwoFactorView>({ step: 'idle' });
  const [problem, setProblem] = useState<string | null>(null);
  const [focusPanel, setFocusPanel] = useState(false);
  const panelHeading = useRef<HTMLHeadingElement>(null);
  const stepHeading = useRef<HTMLHeadingElement>(null);
  const status = useTwoFactorStatus(enabled);

  const start = useStartTwoFactorSetup();
  const reauth = useReauthenticate();
  const enable = useEnableTwoFactor();
  const disable = useDisableTwoFactor();
  const regenerate = useRegenerateRecoveryCodes();

  const passwordForm = useZodForm(reauthenticateRequest, { defaultValues: { password: '' } });
  const codeForm = useZodForm(totpCodeForm, { defaultValues: { code: '' } });
  const disableForm = useZodForm(twoFactorDisableForm, { defaultValues: { currentPassword: '', code: '' } });
  const regenerateForm = useZodForm(regenerateRecoveryCodesRequest, { defaultValues: { currentPassword: '' } });
  const confirmForm = useZodForm(savedForm, { defaultValues: { saved: false } });

  useEffect(() => {
    if (view.step !== 'idle') stepHeading.current?.focus();
    else if (focusPanel) panelHeading.current?.focus();
  }, [view, focusPanel]);

  function go(next: TwoFactorView) {
    setProblem(null);
    setFocusPanel(next.step === 'idle');
    setView(next);
  }

  async function copy(what: string, text: string) {
    try {
      await navigator.clipboard.writeText(text);
      toast.success(`${what} copied`);
    } catch {
      toast.error(`Could not copy the ${what.toLowerCase()}. Select it and copy it instead.`);
    }
  }

  async function beginSetup() {
    setProblem(null);
    try {
      const setup = await start.mutateAsync();
      codeForm.reset({ code: '' });
      go({ step: 'setup', setup });
    } catch (error) {
      if (error instanceof ApiError && error.status === 403 && error.code === 'reauthentication_required') {
        passwordForm.reset({ password: '' });
        go({ step: 'password' });
        return;
      }
      setProblem(errorMessage(error, 'Could not start the setup. Please try again.'));
    }
  }

  async function confirmPassword({ password }: { password: string }) {
    try {
      await reauth.mutateAsync(password);
    } catch (error) {
      passwordForm.setError('password', { message: errorMessage(error, 'That password is incorrect. Please try again.') });
      return;
    }
    await beginSetup();
  }

  async function confirmCode({ code }: { code: string }) {
    setProblem(null);
    try {
      const { recoveryCodes } = await enable.mutateAsync(code);
      confirmForm.reset({ saved: false });
      go({ step: 'codes', codes: recoveryCodes, reason: 'enabled' });
      toast.success('Two-factor authentication is on');
    } catch (error) {
      if (error instanceof ApiError && error.code === 'two_factor_setup_expired') {
        go({ step: 'idle' });
      } else {
        codeForm.reset({ code: '' });
        codeForm.setFocus('code');
      }
      setProblem(errorMessage(error, TWO_FACTOR_MESSAGES.invalidCode));
    }
  }

  async function turnOff(values: { currentPassword: string; code: string }) {
    setProblem(null);
    try {
      await disable.mutateAsync(values);
      disableForm.reset({ currentPassword: '', code: '' });
      go({ step: 'idle' });
      toast.success('Two-factor authentication is off');
    } catch (error) {
      setProblem(errorMessage(error, 'Could not turn off two-factor authentication. Please try again.'));
      disableForm.resetField('code');
    }
  }

  async function newCodes({ currentPassword }: { currentPassword: string }) {
    setProblem(null);
    try {
      const { recoveryCodes } = await regenerate.mutateAsync(currentPassword);
      regenerateForm.reset({ currentPassword: '' });
      confirmForm.reset({ saved: false });
      go({ step: 'codes', codes: recoveryCodes, reason: 'regenerated' });
      toast.success('New recovery codes created');
    } catch (error) {
      setProblem(errorMessage(error, 'Could not create new recovery codes. Please try again.'));
    }
  }

  const remaining = status.data?.enabled ? status.data.recoveryCodesRemaining : null;

  return {
    view, problem, panelHeading, stepHeading, remaining, go, copy, beginSetup,
    passwordForm, codeForm, disableForm, regenerateForm, confirmForm,
    confirmPassword, confirmCode, turnOff, newCodes,
    pending: {
      password: reauth.isPending || start.isPending,
      start: start.isPending,
      enable: enable.isPending,
      disable: disable.isPending,
      regenerate: regenerate.isPending,
    },
  };
}

export type TwoFactorPanelState = ReturnType<typeof useTwoFactorPanel>;
